// The buyer's proof link: /proof/<wait id>.<proof version>.<expiry>.<signature>. The signature is
// an HMAC (a key derived from the server's secret) over the rest, so a link opens only the one
// line it was made for, only until it expires, and only for the proof it was sent with.
import crypto from 'node:crypto';

/** How long a proof link opens its page. */
export const PROOF_LINK_DAYS = 30;

export type ProofLinkRefusal = 'invalid' | 'expired';

const keyOf = (secret: string) => crypto.createHmac('sha256', secret).update('presswork-proof-links').digest();
const sign = (secret: string, body: string) => crypto.createHmac('sha256', keyOf(secret)).update(body).digest('base64url');

export function proofToken(secret: string, waitId: number, version: number, expiresAt: Date): string {
  const body = `${waitId}.${version}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${body}.${sign(secret, body)}`;
}

/** What a token names, or why it is refused: not one of ours (or changed), or past its time. */
export function readProofToken(secret: string, token: string, now: Date): { waitId: number; version: number } | { refused: ProofLinkRefusal } {
  const m = /^(\d{1,10})\.(\d{1,6})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return { refused: 'invalid' };
  const body = `${m[1]}.${m[2]}.${m[3]}`;
  const want = Buffer.from(sign(secret, body));
  const got = Buffer.from(m[4]);
  if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return { refused: 'invalid' };
  if (Number(m[3]) * 1000 < now.getTime()) return { refused: 'expired' };
  return { waitId: Number(m[1]), version: Number(m[2]) };
}
