// What happens to a waiting line (modules/waiting) as time passes and people answer: the change
// window ends, the buyer's proof is e-mailed, reminded, opened, approved, changed or approved by
// itself, and staff release an order or edit a line's personalisation. Every move is one
// conditional UPDATE of the line's wait (waiting/repo.ts): the caller that makes it is the one that
// e-mails or queues production, so two instances (or two clicks) do each thing once.
import type { Knex } from 'knex';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { HttpError, conflict, notFound } from '../http/errors';
import { fieldError } from '../http/fieldErrors';
import type { Actor } from '../http/types';
import { isoNow } from '../lib/clock';
import { createMailer, MailError, mailErrorOf, parseMailAddress, type Mailer } from '../integrations/mailer';
import { queueStoreHoldNote, queueStoreRelease } from '../modules/fulfilment';
import { AUTOMATIC, byUser, recordChange, type HistoryBy } from '../modules/history';
import { orderFor, printHold, newestOrder, writeOrder, type OrderLine, type OrderRecord } from '../modules/orders';
import type { ArtworkFetcher } from '../modules/pdf';
import type { ProductionService } from '../modules/production';
import { findSite, type Site } from '../modules/sites';
import { routeOrder, type RoutingFlowDeps } from './routeOrder';
import {
  autoApproveAt,
  holdsEnded,
  markWaitOnce,
  moveWait,
  PROOF_LINK_DAYS,
  proofToken,
  readProofToken,
  waitById,
  waitingOf,
  waitsInState,
  waitsOfOrder,
  waitingReason,
  waitSettingsOf,
  type LineWait,
  type WaitState,
} from '../modules/waiting';
import { siteSettings } from '../../../common/siteSettings';
import { unitsToMake } from '../../../common/api/units';

/** History's name of the proof rules. */
const PROOFS = 'Buyer proofs';
const STILL_WAITING: readonly WaitState[] = ['hold', 'proof-due', 'proof', 'change'];
const nameOf = (by: HistoryBy) => ('automatic' in by ? by.automatic : by.name);

export interface WaitsDeps extends Deps {
  production: ProductionService;
  artwork: ArtworkFetcher;
  /** The provider's outbox: routing queues the lines it sends there (none: nothing is routed on release). */
  send?: RoutingFlowDeps['send'];
}

/** What the proof page shows: only this line of this order, in its site's colours. */
export interface ProofView {
  site: { name: string; logo: string | null; color: string };
  orderName: string;
  lineName: string;
  personalisation: Array<{ name: string; value: string }>;
  pages: string[];
  /** waiting: the buyer may answer; approved, change, closed: they answered (or staff did). */
  state: 'waiting' | 'approved' | 'change' | 'closed';
  message: string | null;
  autoApproveAt: string | null;
}

export type ProofRefusal = { refused: 'invalid' | 'expired' | 'replaced' | 'unknown'; site?: ProofView['site'] };

export function waitsWorkflow(deps: WaitsDeps) {
  const { db, clock, config, log, production, artwork } = deps;
  let mailerFor = (url: string): Mailer => createMailer(url, { timeoutMs: 20_000 });
  const publicBase = () => config.publicUrl ?? `http://localhost:${config.port}`;
  const now = () => isoNow(clock);

  const history = (trx: Db | Knex.Transaction, w: Pick<LineWait, 'siteId' | 'orderId' | 'lineId'>, by: HistoryBy, action: string, reason: string | null = null, to: string | null = null) =>
    recordChange(trx, { at: now(), siteId: w.siteId, kind: 'order', subjectId: w.orderId, by, action, from: null, to: to ?? `line ${w.lineId}`, reason });

  const lineOf = (order: OrderRecord, lineId: string) => (order.data.line_items ?? []).find((l) => String(l.id) === lineId);
  const siteLook = (site: Site): ProofView['site'] => ({ name: site.name, logo: site.logo, color: /^#[0-9a-f]{3,8}$/i.test(site.theme?.mainColor ?? '') ? site.theme.mainColor : '#222222' });

  /** A wait ended: the order's lines that no longer wait are routed by the site's rules now (routeOrder: once each; a site without rules routes nothing). */
  async function afterRelease(siteId: number, orderId: string): Promise<void> {
    await db.transaction(async (trx) => {
      // Nothing of the order waits any more: the store's hold goes (production starts).
      const waits = await waitsOfOrder(trx, siteId, orderId);
      if (!waits.some((w) => STILL_WAITING.includes(w.state))) await queueStoreRelease(trx as Knex.Transaction, siteId, orderId, now());
      if (!deps.send) return;
      const routing: RoutingFlowDeps = { ...deps, production, send: deps.send };
      const order = await newestOrder(trx, orderId, siteId);
      if (order) await routeOrder(routing, trx as Knex.Transaction, siteId, { ...order.data, id: orderId });
    });
  }

  /** Ends a wait (released): true for the one caller that ended it, which then lets production go. */
  async function release(w: LineWait, from: readonly WaitState[], by: HistoryBy, action: string, reason: string | null, version?: number): Promise<boolean> {
    const moved = await db.transaction(async (trx) => {
      const ok = await moveWait(trx, w.id, from, { state: 'released', releasedAt: now(), releasedBy: nameOf(by) }, now(), version);
      if (ok) await history(trx, w, by, action, reason);
      return ok;
    });
    if (moved) await afterRelease(w.siteId, w.orderId);
    return moved;
  }

  function mailSettings(site: Site): { smtpUrl: string; from: { name: string; address: string } } | string {
    const s = siteSettings(site);
    const smtpUrl = s.SMTP_URL || config.sync.smtpUrl || '';
    const from = parseMailAddress(s.PROOF_FROM || s.ECARD_FROM);
    if (!smtpUrl) return 'no mail server is set (SMTP_URL)';
    if (!from) return 'no sender is set (PROOF_FROM or ECARD_FROM)';
    return { smtpUrl, from: { name: from.name || site.name, address: from.address } };
  }

  /** The line's pages as they will print: its personalised design drawn with its properties, or the design's artwork. */
  async function pagesOf(site: Site, line: OrderLine): Promise<string[]> {
    const mapping = await production.designForLine(site.id, line);
    if (!mapping.design) throw new Error(mapping.reason ?? 'No design prints this line');
    return (await production.linePages(null, site.id, mapping.design, line, { ownOrigin: publicBase() })).images;
  }

  /** The proof e-mail (or its reminder) of a wait at its current version. */
  async function mailProof(site: Site, order: OrderRecord, w: LineWait, reminder: boolean): Promise<void> {
    const ms = mailSettings(site);
    if (typeof ms === 'string') throw new MailError('config', `The proof cannot be e-mailed: ${ms}`);
    const to = parseMailAddress(String(order.data.email ?? ''));
    if (!to) throw new MailError('permanent', 'The order has no e-mail address for the buyer');
    const line = lineOf(order, w.lineId)!;
    const pages = await pagesOf(site, line);
    const link = `${publicBase()}/proof/${proofToken(config.jwt.secret, w.id, w.proofVersion, new Date(clock.now().getTime() + PROOF_LINK_DAYS * 86_400_000))}`;
    const what = String(line.title ?? line.name ?? 'your item');
    const subject = `${reminder ? 'Reminder: ' : ''}Please approve your proof for ${order.data.name ?? 'your order'}`;
    const esc = (t: string) => t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
    const images = await Promise.all(pages.map((u) => artwork(u, { ownOrigin: publicBase() })));
    const html = [
      `<!doctype html><html><body style="margin:0;padding:16px;font-family:Arial,sans-serif;color:#222">`,
      `<h1 style="font-size:20px">${esc(site.name)}: your proof</h1>`,
      `<p>This is exactly what will be printed for <strong>${esc(what)}</strong>. Nothing is made until you approve it.</p>`,
      `<p><a href="${esc(link)}" style="display:inline-block;padding:12px 20px;background:${esc(siteLook(site).color)};color:#fff;text-decoration:none;border-radius:4px">Approve or ask for a change</a></p>`,
      ...images.map((_, i) => `<p><img src="cid:page-${i + 1}@presswork" alt="Page ${i + 1} of ${images.length}" style="max-width:100%;height:auto;border:1px solid #ccc"></p>`),
      '</body></html>',
    ].join('');
    const text = [`${site.name}: your proof`, '', `This is exactly what will be printed for ${what}. Nothing is made until you approve it.`, '', `Approve it or ask for a change: ${link}`].join('\n');
    const mailer = mailerFor(ms.smtpUrl);
    try {
      await mailer.send({
        from: ms.from,
        to: { name: '', address: to.address },
        subject,
        text,
        html,
        messageId: `<proof.${w.id}.${w.proofVersion}${reminder ? '.reminder' : ''}@presswork>`,
        attachments: images.map((content, i) => ({ filename: `page-${i + 1}.png`, content, contentType: 'image/png', cid: `page-${i + 1}@presswork` })),
      });
    } finally {
      mailer.close();
    }
  }

  /**
   * A proof to send (proof-due): the next version is claimed (one caller), e-mailed, and recorded. A
   * cancelled order or a removed line waits for nothing; a mail that cannot be sent now is tried
   * again on the next pass, one the buyer can never get (no address) goes to Needs attention.
   */
  async function sendProof(w: LineWait): Promise<'sent' | 'released' | 'failed' | 'taken'> {
    const site = await findSite(db, w.siteId);
    const order = await newestOrder(db, w.orderId, w.siteId);
    const line = order ? lineOf(order, w.lineId) : undefined;
    if (!site || !order || !line || printHold(order.data, 'created') || unitsToMake(line) === 0) {
      return (await release(w, ['proof-due'], { automatic: PROOFS }, 'proof not needed', 'The order was cancelled or the line removed: nothing is made')) ? 'released' : 'taken';
    }
    const version = w.proofVersion + 1;
    const claimed = await moveWait(db, w.id, ['proof-due'], { state: 'proof', proofVersion: version, proofSentAt: now(), remindedAt: null, openedAt: null }, now(), w.proofVersion);
    if (!claimed) return 'taken';
    const sent = { ...w, state: 'proof' as const, proofVersion: version };
    try {
      await mailProof(site, order, sent, false);
      await history(db, w, { automatic: PROOFS }, 'proof sent', `Proof ${version} e-mailed to the buyer`);
      return 'sent';
    } catch (err) {
      const e = err instanceof MailError ? err : mailErrorOf(err);
      log.warn({ err, siteId: w.siteId, orderId: w.orderId, lineId: w.lineId }, 'proof not sent');
      // Temporary: sent again on the next pass. Otherwise a person has to look (Needs attention).
      const back: WaitState = e.kind === 'temporary' ? 'proof-due' : 'change';
      await moveWait(db, w.id, ['proof'], { state: back, proofVersion: w.proofVersion, proofSentAt: null, message: back === 'change' ? `The proof could not be e-mailed: ${e.message}` : null }, now(), version);
      await history(db, w, { automatic: PROOFS }, 'proof not sent', e.message);
      return 'failed';
    }
  }

  /** One pass of the schedule: windows that ended, proofs to send, reminders, proofs approved by themselves. */
  async function releaseDue(): Promise<{ released: number; proofsSent: number; reminders: number; autoApproved: number }> {
    const tally = { released: 0, proofsSent: 0, reminders: 0, autoApproved: 0 };
    const at = now();
    for (const w of await holdsEnded(db, at)) {
      if (!w.proofNeeded) {
        if (await release(w, ['hold'], { automatic: AUTOMATIC.presswork }, 'change window ended', null)) tally.released++;
        continue;
      }
      await db.transaction(async (trx) => {
        if (await moveWait(trx, w.id, ['hold'], { state: 'proof-due' }, at)) await history(trx, w, { automatic: AUTOMATIC.presswork }, 'change window ended', 'A proof goes to the buyer');
      });
    }
    for (const w of await waitsInState(db, 'proof-due')) if ((await sendProof(w)) === 'sent') tally.proofsSent++;
    for (const w of await waitsInState(db, 'proof')) {
      const site = await findSite(db, w.siteId);
      const settings = waitSettingsOf(site);
      const approveAt = autoApproveAt(w, settings);
      if (approveAt && approveAt <= at) {
        if (await release(w, ['proof'], { automatic: PROOFS }, 'proof auto-approved', `Not answered within ${settings.autoApproveHours} hours`, w.proofVersion)) tally.autoApproved++;
        continue;
      }
      const remindAt = w.proofSentAt && settings.reminderHours ? new Date(Date.parse(w.proofSentAt) + settings.reminderHours * 3_600_000).toISOString() : null;
      if (!site || !remindAt || remindAt > at || w.remindedAt) continue;
      if (!(await markWaitOnce(db, w.id, 'reminded_at', at, w.proofVersion))) continue;
      const order = await newestOrder(db, w.orderId, w.siteId);
      if (!order) continue;
      try {
        await mailProof(site, order, w, true);
        await history(db, w, { automatic: PROOFS }, 'proof reminder sent', `Proof ${w.proofVersion} not answered after ${settings.reminderHours} hours`);
        tally.reminders++;
      } catch (err) {
        await history(db, w, { automatic: PROOFS }, 'proof reminder not sent', mailErrorOf(err).message);
      }
    }
    return tally;
  }

  /** The wait a proof link names, or why the link is refused. */
  async function waitOfLink(token: string): Promise<{ wait: LineWait; site: Site; order: OrderRecord } | ProofRefusal> {
    const read = readProofToken(config.jwt.secret, token, clock.now());
    if ('refused' in read) return { refused: read.refused };
    const wait = await waitById(db, read.waitId);
    const site = wait ? await findSite(db, wait.siteId) : undefined;
    const order = wait ? await newestOrder(db, wait.orderId, wait.siteId) : undefined;
    if (!wait || !site || !order || !lineOf(order, wait.lineId)) return { refused: 'unknown' };
    if (wait.proofVersion !== read.version) return { refused: 'replaced', site: siteLook(site) };
    return { wait, site, order };
  }

  function viewOf(wait: LineWait, site: Site, order: OrderRecord, pages: string[]): ProofView {
    const line = lineOf(order, wait.lineId)!;
    const state: ProofView['state'] = wait.state === 'proof' ? 'waiting' : wait.state === 'change' ? 'change' : wait.state === 'released' && (wait.releasedBy === 'the buyer' || wait.releasedBy === PROOFS) ? 'approved' : 'closed';
    const personalisation = (line.properties ?? []).filter((p) => p && !String(p.name).startsWith('_')).map((p) => ({ name: String(p.name), value: String(p.value ?? '') }));
    return {
      site: siteLook(site),
      orderName: String(order.data.name ?? ''),
      lineName: String(line.title ?? line.name ?? ''),
      personalisation,
      pages,
      state,
      message: wait.state === 'change' ? wait.message : null,
      autoApproveAt: waitingOf(wait, waitSettingsOf(site))?.until ?? null,
    };
  }

  /** GET /proof/:token: the page's content; the first opening is recorded. */
  async function openProof(token: string): Promise<ProofView | ProofRefusal> {
    const found = await waitOfLink(token);
    if ('refused' in found) return found;
    const { wait, site, order } = found;
    if (wait.state === 'proof' && (await markWaitOnce(db, wait.id, 'opened_at', now(), wait.proofVersion))) await history(db, wait, { automatic: PROOFS }, 'proof opened', `Proof ${wait.proofVersion} opened by the buyer`);
    const pages = await pagesOf(site, lineOf(order, wait.lineId)!).catch(() => [] as string[]);
    return viewOf(wait, site, order, pages);
  }

  /** The buyer's answer refused, as a sentence (409): the proof was answered already or replaced. */
  const answered = (w: LineWait) =>
    conflict(w.state === 'released' ? 'This proof was already approved: your order is being made.' : w.state === 'change' ? 'You asked for a change to this proof: we will send you a new one.' : 'This proof cannot be answered now.');

  async function answerable(token: string): Promise<{ wait: LineWait; site: Site; order: OrderRecord }> {
    const found = await waitOfLink(token);
    if ('refused' in found) throw new HttpError(refusalStatus(found.refused), linkRefusalSentence(found.refused), { code: `PROOF_${found.refused.toUpperCase()}` });
    if (found.wait.state !== 'proof') throw answered(found.wait);
    return found;
  }

  /** POST /api/proofs/:token/approve: the line goes to production (once, whoever else approves at the same moment). */
  async function approve(token: string): Promise<{ state: 'approved' }> {
    const { wait } = await answerable(token);
    const moved = await db.transaction(async (trx) => {
      const ok = await moveWait(trx, wait.id, ['proof'], { state: 'released', releasedAt: now(), releasedBy: 'the buyer' }, now(), wait.proofVersion);
      if (ok) await history(trx, wait, { automatic: PROOFS }, 'proof approved', `Proof ${wait.proofVersion} approved by the buyer`);
      return ok;
    });
    if (!moved) throw answered((await waitById(db, wait.id)) ?? wait);
    await afterRelease(wait.siteId, wait.orderId);
    return { state: 'approved' };
  }

  /** POST /api/proofs/:token/request-change: the line keeps waiting; Needs attention shows the message. */
  async function requestChange(token: string, message: string): Promise<{ state: 'change' }> {
    const { wait } = await answerable(token);
    const moved = await db.transaction(async (trx) => {
      const ok = await moveWait(trx, wait.id, ['proof'], { state: 'change', message }, now(), wait.proofVersion);
      if (ok) await history(trx, wait, { automatic: PROOFS }, 'proof change asked', message);
      return ok;
    });
    if (!moved) throw answered((await waitById(db, wait.id)) ?? wait);
    return { state: 'change' };
  }

  /** POST /api/orders/:id/release: every line of the order that waits is made now. */
  async function releaseOrder(actor: Actor, id: string, siteId?: number): Promise<{ released: string[] }> {
    const order = await orderFor(db, actor, id, siteId);
    const released: string[] = [];
    for (const w of await waitsOfOrder(db, order.siteId, order.field1!)) {
      if (!STILL_WAITING.includes(w.state)) continue;
      const moved = await db.transaction(async (trx) => {
        const ok = await moveWait(trx, w.id, STILL_WAITING, { state: 'released', releasedAt: now(), releasedBy: nameOf(byUser(actor)) }, now());
        if (ok) await history(trx, w, byUser(actor), 'released', w.state === 'hold' ? 'Released from the change window' : 'Released without the buyer\'s approval');
        return ok;
      });
      if (moved) released.push(w.lineId);
    }
    if (released.length) await afterRelease(order.siteId, order.field1!);
    return { released };
  }

  /**
   * POST /api/orders/:id/extend-hold: the order's change window lasts `minutes` longer (from its end,
   * or from now when it is already over). Only lines in the window move; a proof wait has no end to move.
   */
  async function extendHold(actor: Actor, id: string, minutes: number, siteId?: number): Promise<{ holdUntil: string; lines: string[] }> {
    const order = await orderFor(db, actor, id, siteId);
    const orderId = order.field1!;
    const inWindow = (await waitsOfOrder(db, order.siteId, orderId)).filter((w) => w.state === 'hold');
    if (!inWindow.length) throw conflict('No line of this order is in the change window: there is no hold to extend (a line waiting for its proof waits for the buyer)');
    const from = Math.max(clock.now().getTime(), ...inWindow.map((w) => Date.parse(w.holdUntil ?? '') || 0));
    const holdUntil = new Date(from + minutes * 60_000).toISOString();
    const moved: string[] = [];
    await db.transaction(async (trx) => {
      for (const w of inWindow) if (await moveWait(trx, w.id, ['hold'], { holdUntil }, now())) moved.push(w.lineId);
      if (moved.length) {
        // The shop's time zone, as every other wait sentence (production's routing) says it.
        const until = waitingReason({ until: holdUntil, reason: 'hold' }, config.sync.timezone);
        await recordChange(trx, { at: now(), siteId: order.siteId, kind: 'order', subjectId: orderId, by: byUser(actor), action: 'hold extended', from: null, to: until, reason: `${minutes} minutes more` });
        // The store's hold says the new time too (the note it was held with is out of date).
        await queueStoreHoldNote(trx as Knex.Transaction, order.siteId, orderId, `Presswork: ${until}`, now());
      }
    });
    if (!moved.length) throw conflict('The change window ended meanwhile: the order is being made');
    return { holdUntil, lines: moved };
  }

  /** POST /api/orders/:id/lines/:lineId/personalisation: the line's properties replaced; a line awaiting its proof gets a new one. */
  async function editPersonalisation(actor: Actor, input: { id: string; lineId: string; siteId?: number; properties: Array<{ name: string; value: string }> }): Promise<{ proof: 'sent' | 'failed' | 'none'; properties: Array<{ name: string; value: string }> }> {
    const order = await orderFor(db, actor, input.id, input.siteId);
    const orderId = order.field1!;
    const line = lineOf(order, input.lineId);
    if (!line) throw notFound('The order has no such line');
    const job = await production.jobOfLine(order.siteId, orderId, input.lineId);
    if (job) throw conflict(`The line is made already (job #${job.id}): its personalisation cannot change now`);
    const names = input.properties.map((p) => p.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) throw fieldError('properties', `name "${twice}" more than once`);
    // The store's hidden properties (a leading underscore) stay as they were.
    const hidden = (line.properties ?? []).filter((p) => String(p.name).startsWith('_'));
    const properties = [...hidden.map((p) => ({ name: String(p.name), value: String(p.value ?? '') })), ...input.properties];
    const wait = (await waitsOfOrder(db, order.siteId, orderId)).find((w) => w.lineId === input.lineId);
    const proofAgain = wait && wait.proofNeeded && ['proof', 'change', 'proof-due'].includes(wait.state);
    await db.transaction(async (trx) => {
      const data = { ...order.data, line_items: (order.data.line_items ?? []).map((l) => (String(l.id) === input.lineId ? { ...l, properties } : l)) };
      await writeOrder(trx, order.id, { data, updatedAt: now() });
      await recordChange(trx, { at: now(), siteId: order.siteId, kind: 'order', subjectId: orderId, by: byUser(actor), action: 'personalisation edited', from: null, to: `line ${input.lineId}`, reason: input.properties.map((p) => `${p.name}: ${p.value}`).join('; ') });
      if (proofAgain) await moveWait(trx, wait.id, ['proof', 'change', 'proof-due'], { state: 'proof-due', message: null }, now());
    });
    if (!proofAgain) return { proof: 'none', properties };
    const fresh = await waitById(db, wait.id);
    const out = fresh?.state === 'proof-due' ? await sendProof(fresh) : 'taken';
    return { proof: out === 'sent' ? 'sent' : out === 'failed' ? 'failed' : 'none', properties };
  }

  return {
    releaseDue,
    openProof,
    approve,
    requestChange,
    releaseOrder,
    extendHold,
    editPersonalisation,
    /** Tests: the mail server's client. */
    configure(next: { mailerFor?: (url: string) => Mailer }) {
      if (next.mailerFor) mailerFor = next.mailerFor;
    },
  };
}

/** What a refused proof link tells the buyer. */
/** A link that is not ours (bad signature) is refused as a credential is (403); an expired one is gone (410), a replaced one conflicts (409), one of nothing is not found. */
export function refusalStatus(r: ProofRefusal['refused']): number {
  return r === 'invalid' ? 403 : r === 'expired' ? 410 : r === 'replaced' ? 409 : 404;
}

export function linkRefusalSentence(r: ProofRefusal['refused']): string {
  if (r === 'expired') return 'This proof link has expired. Please reply to the proof e-mail and the shop will send you a new one.';
  if (r === 'replaced') return 'A newer proof was sent for this item: please use the link in the latest e-mail.';
  return 'This proof link is not valid. Please check that you opened the whole link from the proof e-mail.';
}

export type WaitsWorkflow = ReturnType<typeof waitsWorkflow>;
