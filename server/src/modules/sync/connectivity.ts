// The connectivity test calls: what each step reached (URL, status, latency, error). Nothing is
// written to the CRM or the platform, and no mail is sent.
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { Deps } from '../../deps';
import { IntegrationError } from '../../integrations/crmHttp';
import type { RaisersEdgeClient } from '../../integrations/raisersEdge';
import type { SyncContext } from './context';
import { listDropFiles } from './files';
import { errorMessage } from './runs';
import type { SiteSync } from './siteSettings';

export interface Check {
  step: string;
  url: string | null;
  status: number | null;
  latencyMs: number | null;
  ok: boolean;
  error: string | null;
  /** When something is wrong: the service's own answer, as it sent it (what the vendor's support will ask for). */
  body?: unknown;
}

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

export async function testAdestra({ clients }: Pick<SyncContext, 'clients'>, s: SiteSync) {
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
    dropFolder = { path: s.dropDir, exists: fs.existsSync(s.dropDir), files: listDropFiles(s.dropDir).length };
  } catch {
    dropFolder = { path: s.dropDir, exists: false, files: 0 };
  }
  return { service: 'adestra', site: s.site.slug, ok: checks.every((c) => c.ok), checks, dropFolder };
}

/** No mail is sent: with SMTP_URL the server's greeting is read, else there is nothing to reach. */
export async function testEmail({ config }: Pick<Deps, 'config'>) {
  const smtp = config.sync.smtpUrl;
  if (!smtp) return { service: 'email', ok: false, checks: [{ step: 'mail transport', url: null, status: null, latencyMs: null, ok: false, error: 'no mail transport configured (set SMTP_URL)' }] };
  const u = new URL(smtp);
  const secure = u.protocol === 'smtps:';
  const port = Number(u.port) || (secure ? 465 : 25);
  const started = Date.now();
  const url = `${u.protocol}//${u.hostname}:${port}`;
  const check = await new Promise<Check & { banner?: string }>((resolve) => {
    const socket = secure ? tls.connect({ host: u.hostname, port, servername: u.hostname }) : net.connect({ host: u.hostname, port });
    const done = (c: Partial<Check> & { banner?: string }) => {
      socket.destroy();
      resolve({ step: 'SMTP greeting', url, status: null, latencyMs: Date.now() - started, ok: false, error: null, ...c });
    };
    socket.setTimeout(Math.min(config.sync.httpTimeoutMs, 10_000), () => done({ error: 'no greeting within the timeout' }));
    socket.once('data', (buf) => {
      const banner = buf.toString('utf8').split(/\r?\n/)[0];
      const code = Number(banner.slice(0, 3));
      done({ status: code || null, ok: code === 220, banner, error: code === 220 ? null : `unexpected greeting: ${banner}` });
    });
    socket.once('error', (err) => done({ error: `could not reach the mail server: ${err.message}` }));
  });
  return { service: 'email', ok: check.ok, note: 'connectivity only: no email is sent', checks: [check] };
}
