// The one rule of whether a line waits: its row in line_waits (the change window, then the proof).
// Production asks it before anything is made or listed as makeable; the scheduled release moves
// rows on when their time comes. Pure functions here; the rows are read and moved in repo.ts.
import { siteSettings, type ProofRequired } from '../../../../common/siteSettings';
import type { DesignProof } from '../../../../common/api/printProduction';
import { waitingSentence, type LineWaiting } from '../../../../common/api/waiting';
import { wallClockOf } from '../../../../common/wallClock';
import { nextRunAt } from '../../lib/time';

export type { LineWaiting };

/** hold: in the change window; proof-due: a proof is to be sent; proof: sent, not answered; change: the buyer asked for a change; released: made as usual. */
export const WAIT_STATES = ['hold', 'proof-due', 'proof', 'change', 'released'] as const;
export type WaitState = (typeof WAIT_STATES)[number];

export interface LineWait {
  id: number;
  siteId: number;
  orderId: string;
  lineId: string;
  state: WaitState;
  holdUntil: string | null;
  proofNeeded: boolean;
  proofVersion: number;
  proofSentAt: string | null;
  remindedAt: string | null;
  openedAt: string | null;
  releasedAt: string | null;
  releasedBy: string | null;
  message: string | null;
}

/** What a site says of waiting (its settings, read once). */
export interface WaitSettings {
  holdMinutes: number;
  holdUntil: string | null;
  holdOnlyPersonalised: boolean;
  proofRequired: ProofRequired;
  autoApproveHours: number | null;
  reminderHours: number | null;
}

export function waitSettingsOf(site: { settings: { env: ReadonlyArray<{ key: string; value: string }> } } | undefined): WaitSettings {
  if (!site) return { holdMinutes: 0, holdUntil: null, holdOnlyPersonalised: false, proofRequired: 'off', autoApproveHours: null, reminderHours: null };
  const s = siteSettings(site);
  return {
    holdMinutes: s.HOLD_MINUTES ?? 0,
    holdUntil: s.HOLD_UNTIL || null,
    holdOnlyPersonalised: s.HOLD_ONLY_PERSONALISED,
    proofRequired: s.PROOF_REQUIRED ?? 'off',
    autoApproveHours: s.PROOF_AUTO_APPROVE_HOURS,
    reminderHours: s.PROOF_REMINDER_HOURS,
  };
}

/** A line's properties as the buyer typed them (Shopify's own, named with a leading underscore, are hidden ones). */
export function personalisationOf(line: { properties?: Array<{ name: string; value: unknown }> | null }): Array<{ name: string; value: string }> {
  return (line.properties ?? []).filter((p) => p && typeof p.name === 'string' && !p.name.startsWith('_') && String(p.value ?? '').trim() !== '').map((p) => ({ name: p.name, value: String(p.value) }));
}

export const isPersonalised = (line: { properties?: Array<{ name: string; value: unknown }> | null }) => personalisationOf(line).length > 0;

/**
 * What a newly paid line waits for: the window (until when), a proof, both or neither (null). The
 * line's design may say itself whether its buyers approve a proof (`data.proof`), over the site.
 */
export function waitFor(settings: WaitSettings, line: { properties?: Array<{ name: string; value: unknown }> | null }, now: Date, timeZone: string, designProof: DesignProof | null = null): { holdUntil: string | null; proofNeeded: boolean } | null {
  const personalised = isPersonalised(line);
  const bySite = settings.proofRequired === 'all' || (settings.proofRequired === 'personalised' && personalised);
  const proofNeeded = designProof === 'required' ? true : designProof === 'off' ? false : bySite;
  let holdUntil: string | null = null;
  if (!settings.holdOnlyPersonalised || personalised) {
    if (settings.holdUntil) {
      const [h, m] = settings.holdUntil.split(':').map(Number);
      holdUntil = nextRunAt(h, timeZone, now, m).toISOString();
    } else if (settings.holdMinutes > 0) holdUntil = new Date(now.getTime() + settings.holdMinutes * 60_000).toISOString();
  }
  return holdUntil || proofNeeded ? { holdUntil, proofNeeded } : null;
}

/** When an unanswered proof is approved by itself (null: it keeps waiting). */
export const autoApproveAt = (wait: Pick<LineWait, 'proofSentAt'>, settings: Pick<WaitSettings, 'autoApproveHours'>): string | null =>
  wait.proofSentAt && settings.autoApproveHours ? new Date(Date.parse(wait.proofSentAt) + settings.autoApproveHours * 3_600_000).toISOString() : null;

/**
 * The predicate: what the line waits for now, or null when it may be made. Its row alone says so
 * (the scheduled release moves a row whose time came), so every path asking gets the same answer.
 */
export function waitingOf(wait: LineWait | undefined, settings: Pick<WaitSettings, 'autoApproveHours'>): LineWaiting | null {
  if (!wait || wait.state === 'released') return null;
  if (wait.state === 'hold') return { until: wait.holdUntil, reason: 'hold' };
  if (wait.state === 'proof') return { until: autoApproveAt(wait, settings), reason: 'proof' };
  return { until: null, reason: 'proof' };
}

/** HH:MM of an ISO time in the shop's time zone. */
export function hhmmOf(iso: string | null, timeZone: string): string | null {
  if (!iso) return null;
  const w = wallClockOf(new Date(iso), timeZone);
  return `${w.hour}:${w.minute}`;
}

/** The sentence of a wait ("in the change window until 14:30"), first letter as given. */
export const waitingReason = (w: LineWaiting, timeZone: string) => waitingSentence(w, hhmmOf(w.until, timeZone));
