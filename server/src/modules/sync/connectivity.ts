// The connectivity test calls: what each step reached (URL, status, latency, error). Nothing is
// written to the CRM or the platform; an e-mail is sent only when the caller names a recipient.
import fs from 'node:fs';
import type { ConnectivityCheck } from '../../../../common/api/sync';
import type { Deps } from '../../deps';
import { IntegrationError } from '../../integrations/crmHttp';
import { createMailer, mailErrorOf, parseMailAddress, smtpUrlForDisplay, smtpUrlProblem } from '../../integrations/mailer';
import { envValue } from '../../lib/secrets';
import type { Site } from '../sites';
import type { RaisersEdgeClient } from '../../integrations/raisersEdge';
import type { SyncContext } from './context';
import { errorMessage } from './runs';
import type { SiteSync } from './siteSettings';

export type Check = ConnectivityCheck;

const rawBody = (answer: { json?: unknown; text?: string }) => (answer.json !== undefined && answer.json !== null ? answer.json : (answer.text ?? '').slice(0, 20_000) || null);

async function timed(step: string, url: string | null, fn: () => Promise<{ status: number; url?: string; latencyMs?: number; json?: unknown; text?: string }>): Promise<Check> {
  const started = Date.now();
  try {
    const r = await fn();
    const failed = r.status < 200 || r.status >= 300;
    return { step, url: r.url ?? url, status: r.status, latencyMs: r.latencyMs ?? Date.now() - started, ok: !failed, error: failed ? `answered ${r.status}` : null, ...(failed ? { body: rawBody(r) } : {}) };
  } catch (err) {
    const info = err instanceof IntegrationError ? err.info : {};
    return { step, url: info.url ?? url, status: info.status ?? null, latencyMs: Date.now() - started, ok: false, error: errorMessage(err), ...(info.body !== undefined ? { body: info.body } : {}) };
  }
}

export async function testRaisersEdge({ clients }: Pick<SyncContext, 'clients'>, s: SiteSync) {
  const checks: Check[] = [];
  let re: RaisersEdgeClient | undefined;
  try {
    re = clients.raisersEdge(s);
  } catch (err) {
    checks.push({ step: 'settings', url: null, status: null, latencyMs: null, ok: false, error: errorMessage(err) });
  }
  if (re) {
    const client = re;
    checks.push(await timed('token refresh', s.re.tokenUrl, async () => (await client.accessToken(true), { status: 200 })));
    if (checks[0].ok) checks.push(await timed('list constituents', null, () => client.rawGet('/constituent/v1/constituents?limit=1')));
  }
  return { service: 'raisers-edge', site: s.site.slug, ok: checks.length > 0 && checks.every((c) => c.ok), checks };
}

export async function testRaisersEdgeCall({ clients }: Pick<SyncContext, 'clients'>, s: SiteSync, path: string) {
  const re = clients.raisersEdge(s);
  const started = Date.now();
  try {
    const answer = await re.rawGet(path);
    const text = answer.text.length > 20_000 ? `${answer.text.slice(0, 20_000)}…` : answer.text;
    return { url: answer.url, status: answer.status, latencyMs: answer.latencyMs, ok: answer.status < 300, error: answer.status < 300 ? null : `answered ${answer.status}`, body: text ? (answer.json ?? text) : null };
  } catch (err) {
    const info = err instanceof IntegrationError ? err.info : {};
    return { url: info.url ?? null, status: info.status ?? null, latencyMs: Date.now() - started, ok: false, error: errorMessage(err), body: null };
  }
}

export async function testAdestra({ clients, dropFiles, config }: Pick<SyncContext, 'clients' | 'dropFiles' | 'config'>, s: SiteSync) {
  const checks: Check[] = [];
  try {
    const ad = clients.adestra(s);
    const listId = s.adestra.optInListId;
    checks.push(await timed(listId ? `opt-in list ${listId}` : `core table ${s.adestra.tableId}`, null, () => ad.rawGet(listId ? `/lists/${encodeURIComponent(listId)}` : `/core_tables/${encodeURIComponent(s.adestra.tableId)}`)));
    if (s.adestra.unsubListId) checks.push(await timed(`unsubscribe list ${s.adestra.unsubListId}`, null, () => ad.rawGet(`/lists/${encodeURIComponent(s.adestra.unsubListId)}`)));
  } catch (err) {
    checks.push({ step: 'settings', url: null, status: null, latencyMs: null, ok: false, error: errorMessage(err) });
  }
  let dropFolder: { path: string; exists: boolean; files: number };
  try {
    const files = (await dropFiles.list(s)).length;
    // A bucket has no folders: its prefix is there as soon as a file is.
    dropFolder = { path: dropFiles.where(s), exists: config.storage.kind === 's3' ? files > 0 : fs.existsSync(s.dropDir), files };
  } catch {
    dropFolder = { path: dropFiles.where(s), exists: false, files: 0 };
  }
  return { service: 'adestra', site: s.site.slug, ok: checks.every((c) => c.ok), checks, dropFolder };
}

export const TEST_MAIL_SUBJECT = 'Presswork test message';

/**
 * The mail server of the site (its SMTP_URL, else the server-wide SMTP_URL): a real connection
 * (greeting, EHLO, STARTTLS when offered, the login), and with `to` a short real message.
 */
export async function testEmail({ config }: Pick<Deps, 'config'>, site: Site | undefined, to?: string) {
  const siteUrl = site ? envValue(site.settings.env, 'SMTP_URL')?.trim() : undefined;
  const smtpUrl = siteUrl || config.sync.smtpUrl;
  const answer = (checks: Check[], note?: string) => ({ service: 'email', site: site?.slug ?? null, ok: checks.every((c) => c.ok), ...(note ? { note } : {}), checks });
  if (!smtpUrl) return answer([{ step: 'mail transport', url: null, status: null, latencyMs: null, ok: false, error: "no mail transport configured (set the site's SMTP_URL setting, or SMTP_URL)" }]);
  const url = smtpUrlForDisplay(smtpUrl);
  const problem = smtpUrlProblem(smtpUrl);
  if (problem) return answer([{ step: 'settings', url, status: null, latencyMs: null, ok: false, error: problem }]);
  const failed = (step: string, started: number, err: unknown): Check => {
    const e = mailErrorOf(err);
    return { step, url, status: e.responseCode, latencyMs: Date.now() - started, ok: false, error: e.message };
  };
  const mailer = createMailer(smtpUrl, { timeoutMs: Math.min(config.sync.httpTimeoutMs, 15_000) });
  try {
    const checks: Check[] = [];
    let started = Date.now();
    try {
      const { latencyMs } = await mailer.verify();
      checks.push({ step: 'connection', url, status: null, latencyMs, ok: true, error: null });
    } catch (err) {
      return answer([failed('connection', started, err)]);
    }
    if (!to) return answer(checks, 'connection only: no e-mail is sent (give "to" to send a test message)');
    const fromSetting = site ? envValue(site.settings.env, 'ECARD_FROM') : undefined;
    const from = parseMailAddress(fromSetting);
    if (fromSetting?.trim() && !from) return answer([...checks, { step: 'test message', url, status: null, latencyMs: null, ok: false, error: `ECARD_FROM is not an e-mail address: "${fromSetting}"` }]);
    const host = new URL(config.publicUrl ?? smtpUrl).hostname;
    // An address or a bare name is no mail domain.
    const domain = host.includes('.') && !/^[\d.]+$/.test(host) ? host : 'localhost';
    started = Date.now();
    try {
      const sent = await mailer.send({
        from: from ?? { name: 'Presswork', address: `presswork@${domain}` },
        to: { address: to },
        subject: TEST_MAIL_SUBJECT,
        text: `This is a test message from Presswork${site ? ` (site ${site.name})` : ''}: the mail server ${url} accepted it.`,
        html: `<p>This is a test message from Presswork${site ? ` (site ${escapeHtml(site.name)})` : ''}: the mail server ${escapeHtml(url)} accepted it.</p>`,
      });
      const code = Number(sent.response.slice(0, 3));
      checks.push({ step: 'test message', url, status: code || null, latencyMs: Date.now() - started, ok: true, error: null });
    } catch (err) {
      checks.push(failed('test message', started, err));
    }
    return answer(checks);
  } finally {
    mailer.close();
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
