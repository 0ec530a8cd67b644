// Editor side of the editor frame protocol (docs/print-production.md, "The editor frame protocol").
// The editor says `ready` to its parent at the expected origin, accepts `init` only from
// window.parent at an allowed origin, and reports `dirty` and `design-saved` to that origin only.
import { EDITOR_SOURCE, HOST_SOURCE, type EditorMessage } from '../design/editorFrameProtocol';

export interface InitData {
  token: string;
  designId: string | number;
  /** Where the API lives (the host's origin); calls go to `${apiBase}/api/…`. */
  apiBase: string;
}

/**
 * Origins whose `init` the editor accepts. The editor's own origin (the default set-up, where the
 * Design screen and the editor are one app); a deployment with the host elsewhere lists it here.
 */
export function allowedParentOrigins(ownOrigin: string = window.location.origin, configured: readonly unknown[] = []): string[] {
  const extra = configured.flatMap((o) => {
    if (typeof o !== 'string') return [];
    try {
      const u = new URL(o);
      return ['http:', 'https:'].includes(u.protocol) ? [u.origin] : [];
    } catch {
      return [];
    }
  });
  return [...new Set([ownOrigin, ...extra])];
}

/** The configured extra parent origins (EDITOR_ALLOWED_PARENT_ORIGINS), from the editor's own server. */
export async function loadAllowedParentOrigins(): Promise<string[]> {
  try {
    const res = await fetch('/api/app-config');
    const body = (await res.json()) as { data?: { editorAllowedParentOrigins?: unknown } };
    const list = body?.data?.editorAllowedParentOrigins;
    return allowedParentOrigins(undefined, Array.isArray(list) ? list : []);
  } catch {
    return allowedParentOrigins();
  }
}

/**
 * The origin to post to: the parent's, when the frame's referrer names an allowed origin, else
 * the first allowed one. Never `*`.
 */
export function parentTargetOrigin(allowed: readonly string[], referrer: string = document.referrer): string {
  if (referrer) {
    try {
      const origin = new URL(referrer).origin;
      if (allowed.includes(origin)) return origin;
    } catch {
      // Not a URL: fall back to the configured origin.
    }
  }
  return allowed[0];
}

/** Normalises apiBase to an http(s) origin-and-path without a trailing slash, or null. */
export function normaliseApiBase(raw: unknown): string | null {
  if (typeof raw !== 'string' || !raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/** The host's `init` when it comes from `parent` at an allowed origin and has the right shape; else null. */
export function readInitMessage(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  parent: Window | null,
  allowed: readonly string[],
): InitData | null {
  if (!parent || event.source !== parent) return null;
  if (!allowed.includes(event.origin)) return null;
  const data: unknown = event.data;
  if (!data || typeof data !== 'object') return null;
  const message = data as Record<string, unknown>;
  if (message.source !== HOST_SOURCE || message.type !== 'init') return null;
  if (typeof message.token !== 'string' || !message.token) return null;
  const designId = message.designId;
  if (!((typeof designId === 'string' && designId !== '') || (typeof designId === 'number' && Number.isFinite(designId)))) return null;
  const apiBase = normaliseApiBase(message.apiBase);
  if (!apiBase) return null;
  return { token: message.token, designId, apiBase };
}

export const readyMessage = (): EditorMessage => ({ source: EDITOR_SOURCE, type: 'ready' });
export const dirtyMessage = (dirty: boolean): EditorMessage => ({ source: EDITOR_SOURCE, type: 'dirty', dirty });
export const designSavedMessage = (designId: string | number): EditorMessage => ({ source: EDITOR_SOURCE, type: 'design-saved', designId });
