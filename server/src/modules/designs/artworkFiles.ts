// Artwork the server makes itself (blank pages, demo artwork): PNGs stored like uploads, served at /files/….
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import { isoNow } from '../../lib/clock';
import { buildKey, insertUpload, removeUpload } from '../uploads';
import type { FileStore } from '../uploads';
import { fieldError } from '../../http/fieldErrors';

/** A5 (148 × 210 mm) at 300 dpi. */
export const A5_300DPI = { width: Math.round((148 / 25.4) * 300), height: Math.round((210 / 25.4) * 300), dpi: 300 };

/** A blank white A5 page at 300 dpi. */
export function blankA5Png(): Promise<Buffer> {
  return sharp({ create: { width: A5_300DPI.width, height: A5_300DPI.height, channels: 3, background: '#ffffff' } })
    .withMetadata({ density: A5_300DPI.dpi })
    .png()
    .toBuffer();
}

/** The bytes are a PNG or JPEG image that decodes (not just the right first bytes). */
export async function assertPngOrJpeg(bytes: Buffer, field: string): Promise<void> {
  let format: string | undefined;
  try {
    format = (await sharp(bytes).metadata()).format;
  } catch {
    format = undefined;
  }
  if (format !== 'png' && format !== 'jpeg') throw fieldError(field, 'must be a PNG or JPEG image');
}

/** Stores a generated file under a fresh key, with its uploads row, and returns its /files/… address. */
export async function storeGeneratedFile(
  { db, clock }: { db: Db; clock: Clock },
  store: FileStore,
  owner: { userId: number | null; siteId: number | null },
  serverSidePath: string,
  contentType: 'image/png' | 'image/jpeg' | 'application/pdf',
  bytes: Buffer,
): Promise<string> {
  const key = buildKey(serverSidePath, clock.now(), owner.siteId);
  await insertUpload(db, { key, contentType, size: bytes.length, userId: owner.userId, siteId: owner.siteId, createdAt: isoNow(clock) });
  try {
    await store.put(key, Readable.from(bytes));
  } catch (err) {
    await removeUpload(db, key);
    throw err;
  }
  return `/files/${key.split('/').map(encodeURIComponent).join('/')}`;
}
