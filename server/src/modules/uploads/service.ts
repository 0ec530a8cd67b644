// The presigned-upload flow of the spec: the server hands out a short-lived signed URL to its own
// PUT /uploads/<key>; files are then served back at /files/<key> (unguessable: the key holds 96 random bits).
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Deps } from '../../deps';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { buildKey, signGrant, verifyGrant, type UploadGrant } from './signing';
import { ALLOWED_TYPES, fileProblem, matchesType, type AllowedType } from './sniff';
import { uploadsRepo } from './repo';
import type { FileStore } from './storage';

export interface UploadRequest {
  serverSidePath: string;
  contentType: AllowedType;
}

export function uploadsService({ db, clock, config }: Deps, store: FileStore) {
  const secret = crypto.createHmac('sha256', config.jwt.secret).update('presswork-uploads').digest('hex');
  const uploads = uploadsRepo(db);

  function grantUpload(actor: Actor, req: UploadRequest, baseUrl: string): { url: string; key: string; fileUrl: string } {
    const key = buildKey(req.serverSidePath, clock.now());
    const grant: UploadGrant = {
      key,
      contentType: req.contentType,
      expires: Math.floor(clock.now().getTime() / 1000) + config.uploads.urlTtlSeconds,
      userId: actor.id,
      siteId: actor.siteId,
    };
    const q = new URLSearchParams({
      ct: grant.contentType,
      expires: String(grant.expires),
      u: String(grant.userId),
      s: String(grant.siteId),
      sig: signGrant(secret, grant),
    });
    const path = `/uploads/${key.split('/').map(encodeURIComponent).join('/')}`;
    return { url: `${baseUrl}${path}?${q}`, key, fileUrl: `${baseUrl}/files/${key.split('/').map(encodeURIComponent).join('/')}` };
  }

  async function receive(key: string, query: Record<string, unknown>, contentType: string | undefined, body: Buffer) {
    const grant: UploadGrant = {
      key,
      contentType: String(query.ct ?? ''),
      expires: Number(query.expires),
      userId: Number(query.u),
      siteId: Number(query.s),
    };
    if (!verifyGrant(secret, grant, String(query.sig ?? ''))) throw forbidden('This upload link is not valid');
    if (!Number.isFinite(grant.expires) || grant.expires * 1000 < clock.now().getTime()) throw forbidden('This upload link has expired; ask for a new one');
    const sentType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (sentType !== grant.contentType) throw badRequest(`Content-Type must be ${grant.contentType}, as the upload link was made for`);
    if (!body.length) throw badRequest('The file is empty');
    if (!matchesType(grant.contentType as AllowedType, body.subarray(0, 16))) throw badRequest(`The file is not a valid ${grant.contentType}`);
    // The whole file, before anything is stored: complete, within the pixel limit, no active content.
    const problem = await fileProblem(grant.contentType as AllowedType, body);
    if (problem) throw badRequest(`The file cannot be accepted as ${grant.contentType}: ${problem}`);
    // Claim the key first (unique): of two uploads racing on one link, exactly one writes the file, the other gets 409.
    const claimed = await uploads.claim({ key, contentType: grant.contentType, size: body.length, userId: grant.userId, siteId: grant.siteId, createdAt: isoNow(clock) });
    if (!claimed) throw new HttpError(409, 'This upload link has already been used');
    try {
      await store.put(key, Readable.from(body));
    } catch (err) {
      await uploads.remove(key);
      throw err;
    }
    return { key, url: `/files/${key.split('/').map(encodeURIComponent).join('/')}` };
  }

  async function open(key: string) {
    const contentType = await uploads.contentTypeOf(key);
    const file = contentType ? await store.open(key) : null;
    if (!contentType || !file) throw notFound('File not found');
    return { ...file, contentType };
  }

  return { grantUpload, receive, open, allowedTypes: ALLOWED_TYPES };
}

export type UploadsService = ReturnType<typeof uploadsService>;
