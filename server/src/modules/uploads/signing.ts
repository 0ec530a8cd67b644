// Signed upload URLs: HMAC over key, content type, expiry and uploader; checked timing-safe.
import crypto from 'node:crypto';
import { siteFolder } from './keys';

export interface UploadGrant {
  key: string;
  contentType: string;
  expires: number; // unix seconds
  userId: number;
  siteId: number;
  /** The file's size in bytes, when the link was made for one. */
  size?: number;
}

export function signGrant(secret: string, g: UploadGrant): string {
  return crypto.createHmac('sha256', secret).update(`${g.key}\n${g.contentType}\n${g.expires}\n${g.userId}\n${g.siteId}${g.size !== undefined ? `\n${g.size}` : ''}`).digest('hex');
}

export function verifyGrant(secret: string, g: UploadGrant, signature: string): boolean {
  const expected = Buffer.from(signGrant(secret, g), 'hex');
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * The site's folder + the folder the uploader named + timestamp + random + file name, every part
 * made safe for a URL and a file system (keys.ts: one site's files under one prefix).
 */
export function buildKey(serverSidePath: string, now: Date, siteId: number | null): string {
  const parts = serverSidePath.split('/').map((p) => p.trim()).filter(Boolean);
  const fileName = parts.pop() ?? 'file';
  const folder = parts
    .map((p) => p.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, ''))
    .filter((p) => p && p !== '.' && p !== '..')
    .slice(0, 4)
    .join('/');
  const safeName =
    fileName
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(-100) || 'file';
  const stamp = now.getTime();
  const random = crypto.randomBytes(12).toString('hex');
  return `${siteFolder(siteId)}/${folder || 'uploads'}/${stamp}-${random}-${safeName}`;
}
