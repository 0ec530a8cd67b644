// POST /api/images/url-to-base64 {url} → data: "data:<type>;base64,…" (the artwork fetcher's rules apply).
import { Router } from 'express';
import sharp from 'sharp';
import { z } from 'zod';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { ok } from '../../http/envelope';
import { parse } from '../../http/validate';
import type { ArtworkFetcher } from '../pdf/artwork';
import { baseUrlOf } from '../uploads/routes';
import { MAX_PIXELS } from './inspect';
import { fieldError } from '../../http/fieldErrors';

const body = z.object({ url: z.string().trim().min(1, 'is required').max(4_000_000) });

/** The image type a file's first bytes say, or null. */
export function imageTypeOf(b: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | null {
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  return null;
}

export function imagesRoutes(fetchArtwork: ArtworkFetcher, config: Config): Router {
  const r = Router();

  r.post('/url-to-base64', allow.signedIn.describe('An allowed artwork URL fetched and answered as a data: URL', { body: body }), async (req, res) => {
    const { url } = parse(body, req.body);
    const bytes = await fetchArtwork(url, { ownOrigin: baseUrlOf(req, config) });
    const type = imageTypeOf(bytes);
    if (!type) throw fieldError('url', 'must lead to a PNG, JPEG, WebP or GIF image');
    try {
      await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
    } catch (err) {
      throw fieldError('url', `leads to an image that could not be read (${(err as Error).message.split('\n')[0]})`);
    }
    ok(res, `data:${type};base64,${bytes.toString('base64')}`);
  });

  return r;
}
