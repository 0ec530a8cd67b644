// Applying one drop file (unsubscribe, Export 80/92) to the CRM's consents, row by row, exactly
// once: a checkpoint per row, so a crashed or stopped file resumes where it was.
import { notFound, conflict } from '../../http/errors';
import { IntegrationError } from '../../integrations/crmHttp';
import { mostRecentConsent, type ConsentResponse, type RaisersEdgeClient } from '../../integrations/raisersEdge';
import type { SyncContext } from './context';
import { FILE_KINDS, parseCsv, type FileKind } from './files';
import type { FileRecordData } from './records';
import { errorMessage } from './runs';
import type { SiteSync } from './siteSettings';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The consent an Export 80/92 row asks for, from its event name. */
function eventTarget(event: string | undefined): ConsentResponse | undefined {
  const e = (event ?? '').trim().toLowerCase().replace(/[\s_-]/g, '');
  if (['subscribe', 'subscribed', 'optin', 'signup', 'signedup', 'resubscribe', 'resubscribed'].includes(e)) return 'OptIn';
  if (['unsubscribe', 'unsubscribed', 'optout', 'suppressed'].includes(e)) return 'OptOut';
  return undefined;
}

function consentDate(value: string | undefined, now: Date): string {
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? now.toISOString() : new Date(t).toISOString();
}

/** One row: the consent it asks for, for every CRM constituent with that email, unless already so. */
async function applyRow({ clock }: Pick<SyncContext, 'clock'>, s: SiteSync, re: RaisersEdgeClient, kind: FileKind, row: Record<string, string>): Promise<'applied' | 'unchanged' | 'unmatched' | { skipped: string }> {
  const email = (row.email ?? '').trim().toLowerCase();
  if (!EMAIL.test(email)) return { skipped: email ? `"${email}" is not an email address` : 'no email' };
  const target: ConsentResponse | undefined = kind === 'unsubscribe' ? 'OptOut' : eventTarget(row.event);
  if (!target) return { skipped: `event "${row.event ?? ''}" is not a consent change` };
  const matches = (await re.searchByEmail(email)).filter((m) => !m.email || m.email.trim().toLowerCase() === email);
  if (!matches.length) return 'unmatched';
  let applied = false;
  for (const m of matches) {
    const recent = mostRecentConsent(await re.emailConsents(String(m.id)));
    // Idempotent: a row replayed after a crash finds its consent already there.
    if (recent?.constituent_consent_response === target) continue;
    // The CRM accepts only names from the organisation's own lists: the site's settings (checked
    // against those lists when saved), else the category the supporter had and no source.
    const category = s.re.consentCategory || recent?.category;
    await re.createConsent({
      constituent_id: String(m.id),
      channel: 'Email',
      ...(category ? { category } : {}),
      ...(s.re.consentSource ? { source: s.re.consentSource } : {}),
      consent_date: consentDate(kind === 'unsubscribe' ? row.unsubscribed_at : row.event_date, clock.now()),
      constituent_consent_response: target,
    });
    applied = true;
  }
  return applied ? 'applied' : 'unchanged';
}

/**
 * Apply a drop file row by row. The checkpoint (rowsDone) is committed after each row, so a
 * resumed file starts at the first row not committed; that one row may have reached the CRM
 * before the crash, and the consent check makes applying it again a no-op.
 */
export async function processFileInner(ctx: SyncContext, s: SiteSync, kind: FileKind, name: string, force: boolean) {
  const { records, leases, clients, clock, opts, dropFiles } = ctx;
  const bytes = await dropFiles.read(s, name, kind);
  if (!bytes) throw notFound(`No ${FILE_KINDS[kind].label} file named ${name}`);
  const out = await leases.run(`file:${s.site.id}:${kind}:${name}`, {}, async () => {
    const existing = await records.fileRecord(s.site.id, kind, name);
    if (existing && existing.data.status === 'success' && !force) return { status: 'success' as const, alreadyProcessed: true, data: existing.data };
    const csv = parseCsv(bytes);
    const now = clock.now().toISOString();
    const fresh: FileRecordData = {
      name,
      kind,
      day: /_(\d{4})(\d{2})(\d{2})\.csv$/.exec(name)?.slice(1).join('-') ?? null,
      status: 'processing',
      sha256: csv.sha256,
      delimiter: csv.delimiter,
      rowsTotal: csv.rows.length,
      rowsDone: 0,
      applied: 0,
      unchanged: 0,
      unmatched: [],
      skipped: [],
      errors: [],
      runs: 0,
      startedAt: now,
      finishedAt: null,
      doneAt: null,
      error: null,
    };
    let data: FileRecordData;
    if (!existing) data = fresh;
    else if (existing.data.status === 'success' || existing.data.sha256 !== csv.sha256) {
      // Re-processing on request, or the file was replaced: start again (applied rows stay no-ops).
      data = { ...fresh, runs: existing.data.runs ?? 0, restartedBecause: existing.data.status === 'success' ? 'force' : 'file changed' };
    } else data = { ...existing.data, status: 'processing', rowsTotal: csv.rows.length, error: null, finishedAt: null, resumedAt: now, resumedFrom: existing.data.rowsDone };
    data.runs = (data.runs ?? 0) + 1;
    const id = existing ? existing.id : await records.createFileRecord(s.site.id, kind, data);
    await records.saveFileRecord(id, data);
    const re = clients.raisersEdge(s);
    // What the checkpoint says: a failure records this, not counts of a row it did not commit.
    let committed: FileRecordData = structuredClone(data);
    try {
      for (let i = data.rowsDone; i < csv.rows.length; i++) {
        const row = csv.rows[i];
        try {
          const outcome = await applyRow(ctx, s, re, kind, row);
          if (outcome === 'applied') data.applied++;
          else if (outcome === 'unchanged') data.unchanged++;
          else if (outcome === 'unmatched') data.unmatched.push((row.email ?? '').trim().toLowerCase());
          else data.skipped.push({ row: i + 1, reason: outcome.skipped });
        } catch (err) {
          if (err instanceof IntegrationError && err.fatal) throw err;
          data.errors.push({ file: name, row: i + 1, email: row.email, message: errorMessage(err) });
        }
        await opts.hooks?.beforeCheckpoint?.({ siteId: s.site.id, kind, name, row: i });
        data.rowsDone = i + 1;
        await records.saveFileRecord(id, data);
        committed = structuredClone(data);
      }
      const at = clock.now().toISOString();
      data = { ...data, status: 'success', finishedAt: at, doneAt: at };
      await records.saveFileRecord(id, data);
      return { status: 'success' as const, alreadyProcessed: false, data };
    } catch (err) {
      data = { ...committed, status: 'failed', finishedAt: clock.now().toISOString(), error: errorMessage(err) };
      await records.saveFileRecord(id, data);
      return { status: 'failed' as const, error: data.error, alreadyProcessed: false, data, cause: err };
    }
  });
  if (!out.ran) throw conflict(`${name} is being processed right now; try again in a moment`);
  return out.value;
}
