// What a paid order's line waits for before it is made: the site's change window ('hold') or the
// buyer's approval of its proof ('proof'). Part of a line's state wherever lines are answered.

export type WaitReason = 'hold' | 'proof';

/** `until`: when the wait ends by itself (ISO time), or null when only an answer ends it. */
export interface LineWaiting {
  until: string | null;
  reason: WaitReason;
}

/** A line's wait as a person reads it; `hhmm` is `until` as HH:MM in the shop's time zone. */
export function waitingSentence(w: LineWaiting, hhmm: string | null): string {
  if (w.reason === 'hold') return hhmm ? `in the change window until ${hhmm}` : 'in the change window';
  return hhmm ? `waiting for the buyer to approve the proof (approved by itself at ${hhmm})` : 'waiting for the buyer to approve the proof';
}
