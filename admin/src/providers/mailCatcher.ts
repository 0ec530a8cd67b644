// The demo's caught e-mails (GET /api/test/caught-emails…) and the e-mail test call, admin only.
import type { ConnectivityCheck } from '../../../common/api/sync';
import type { CaughtEmail, CaughtEmailSummary } from '../../../common/api/mailCatcher';
import { api, ApiError } from './api';
import { authHeaders } from './session';

export const CAUGHT_EMAILS = '/api/test/caught-emails';

export const listCaughtEmails = (signal?: AbortSignal) => api<CaughtEmailSummary[]>(CAUGHT_EMAILS, { signal });

export const getCaughtEmail = (id: number, signal?: AbortSignal) => api<CaughtEmail>(`${CAUGHT_EMAILS}/${id}`, { signal });

/** Does this server run a mail catcher? (404 when not: production, or simulators off.) */
export async function mailCatcherRunning(signal?: AbortSignal): Promise<boolean> {
  try {
    await listCaughtEmails(signal);
    return true;
  } catch {
    return false;
  }
}

/** An attachment as a data: URL: the sandboxed frame showing the message can load it, and the call carries our token. */
export async function attachmentDataUrl(id: number, index: number, signal?: AbortSignal): Promise<string> {
  const res = await fetch(`${CAUGHT_EMAILS}/${id}/attachments/${index}`, { headers: authHeaders(), signal });
  if (!res.ok) throw new ApiError(`Attachment ${index} could not be loaded (${res.status})`, res.status, undefined);
  const bytes = new Uint8Array(await res.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${res.headers.get('Content-Type') ?? 'application/octet-stream'};base64,${btoa(binary)}`;
}

export type EmailCheck = ConnectivityCheck;

export interface EmailTestAnswer {
  service: 'email';
  site: string | null;
  ok: boolean;
  note?: string;
  checks: EmailCheck[];
}

/** POST /api/test/send-email: the site's mail server checked, and with `to` a real test message sent. */
export const sendTestEmail = (body: { site?: string; to?: string }) => api<EmailTestAnswer>('/api/test/send-email', { method: 'POST', body });

/**
 * The message's HTML with each `cid:` reference pointed at the attachment of that Content-ID; one
 * with no such attachment becomes an empty image (the page's policy would refuse a cid: load).
 */
export function withInlineImages(html: string, byCid: Record<string, string>): string {
  return html.replace(/(["'(])cid:([^"')\s]+)/gi, (_whole, before: string, cid: string) => {
    let key = cid;
    try {
      key = decodeURIComponent(cid);
    } catch {
      // a malformed escape: the reference as written
    }
    return `${before}${byCid[key] ?? byCid[cid] ?? 'data:,'}`;
  });
}
