// JWTs: HS256 only (pinned on verify), with an expiry and a random id so sign-out can revoke one,
// and the user's site at sign-in (`site`): a user moved to another site must sign in again.
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { TokenInfo } from '../../http/types';

export interface TokenSettings {
  secret: string;
  expiresIn: string;
}

export function signToken(settings: TokenSettings, userId: number, siteId?: number): string {
  return jwt.sign(siteId === undefined ? {} : { site: siteId }, settings.secret, {
    algorithm: 'HS256',
    subject: String(userId),
    jwtid: crypto.randomBytes(16).toString('hex'),
    expiresIn: settings.expiresIn as jwt.SignOptions['expiresIn'],
  });
}

/** `siteId`: the user's site when the token was issued (absent from tokens signed without one). */
export type Verified = { userId: number; siteId?: number } & TokenInfo;

/**
 * Given a string, jsonwebtoken first tries it as a PEM public key and catches the failure (about
 * 0.5 ms, most of a signed-in request's own cost): verify with a secret KeyObject, made once.
 */
const secretKeys = new Map<string, crypto.KeyObject>();
function secretKeyOf(secret: string): crypto.KeyObject {
  let key = secretKeys.get(secret);
  if (!key) secretKeys.set(secret, (key = crypto.createSecretKey(Buffer.from(secret))));
  return key;
}

/** The token's user and id, or null for anything not a valid, unexpired HS256 token of ours. */
export function verifyToken(settings: TokenSettings, token: string, now: Date): Verified | null {
  try {
    const payload = jwt.verify(token, secretKeyOf(settings.secret), { algorithms: ['HS256'], clockTimestamp: Math.floor(now.getTime() / 1000) });
    if (typeof payload !== 'object' || !payload.sub || !payload.jti || !payload.exp) return null;
    const userId = Number(payload.sub);
    if (!/^[1-9]\d{0,15}$/.test(payload.sub) || !Number.isSafeInteger(userId)) return null;
    const site: unknown = payload.site;
    if (site !== undefined && !(typeof site === 'number' && Number.isSafeInteger(site) && site > 0)) return null;
    return { userId, jti: payload.jti, expiresAt: new Date(payload.exp * 1000), ...(site === undefined ? {} : { siteId: site }) };
  } catch {
    return null;
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m?.[1];
}
