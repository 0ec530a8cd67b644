// The presigned-upload flow of the spec: the server hands out a short-lived signed URL to its own
// PUT /uploads/<key> — or, with files in a bucket, a presigned S3 PUT straight into it — and files
// are then served back at /files/<key> (unguessable: the key holds 96 random bits).
//
// A direct PUT lands under incoming/<key>, where nothing reads it: the first read of <key> checks it
// as the server's own PUT does (type, size, whole content) and only then moves it to <key>; a
// refused file is removed. So no one ever uses an unchecked file.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Deps } from '../../deps';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { perSiteKeyOf } from './keys';
import { buildKey, signGrant, verifyGrant, type UploadGrant } from './signing';
import { ALLOWED_TYPES, fileProblem, matchesType, type AllowedType } from './sniff';
import { uploadsRepo } from './repo';
import type { FileStore } from './storage';

export interface UploadRequest {
  serverSidePath: string;
  contentType: AllowedType;
  /** The file's size in bytes: bound into the link when given (required for a direct PUT into a bucket). */
  contentLength?: number;
}

/** Where a direct PUT into the bucket waits to be checked. */
const INCOMING = 'incoming/';

const urlPathOf = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export function uploadsService({ db, clock, config }: Deps, store: FileStore) {
  const secret = crypto.createHmac('sha256', config.jwt.secret).update('presswork-uploads').digest('hex');
  const uploads = uploadsRepo(db);

  async function grantUpload(actor: Actor, req: UploadRequest, baseUrl: string): Promise<{ url: string; key: string; fileUrl: string }> {
    const key = buildKey(req.serverSidePath, clock.now(), actor.siteId);
    const fileUrl = `${baseUrl}/files/${urlPathOf(key)}`;
    if (req.contentLength !== undefined && req.contentLength > config.uploads.maxBytes) throw badRequest(`The file is larger than the ${config.uploads.maxBytes} bytes an upload may have`);
    if (store.presignPut) {
      if (req.contentLength === undefined) throw badRequest("contentLength (the file's size in bytes) is required: the upload link is made for that size");
      const url = await store.presignPut(INCOMING + key, {
        contentType: req.contentType,
        contentLength: req.contentLength,
        expiresSeconds: config.uploads.urlTtlSeconds,
        metadata: { uploader: String(actor.id), site: String(actor.siteId) },
      });
      return { url, key, fileUrl };
    }
    const grant: UploadGrant = {
      key,
      contentType: req.contentType,
      expires: Math.floor(clock.now().getTime() / 1000) + config.uploads.urlTtlSeconds,
      userId: actor.id,
      siteId: actor.siteId,
      ...(req.contentLength !== undefined ? { size: req.contentLength } : {}),
    };
    const q = new URLSearchParams({
      ct: grant.contentType,
      expires: String(grant.expires),
      u: String(grant.userId),
      s: String(grant.siteId),
      ...(grant.size !== undefined ? { n: String(grant.size) } : {}),
      sig: signGrant(secret, grant),
    });
    return { url: `${baseUrl}/uploads/${urlPathOf(key)}?${q}`, key, fileUrl };
  }

  async function receive(key: string, query: Record<string, unknown>, contentType: string | undefined, body: Buffer) {
    const grant: UploadGrant = {
      key,
      contentType: String(query.ct ?? ''),
      expires: Number(query.expires),
      userId: Number(query.u),
      siteId: Number(query.s),
      ...(query.n !== undefined ? { size: Number(query.n) } : {}),
    };
    if (!verifyGrant(secret, grant, String(query.sig ?? ''))) throw forbidden('This upload link is not valid');
    if (!Number.isFinite(grant.expires) || grant.expires * 1000 < clock.now().getTime()) throw forbidden('This upload link has expired; ask for a new one');
    const sentType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (sentType !== grant.contentType) throw badRequest(`Content-Type must be ${grant.contentType}, as the upload link was made for`);
    if (grant.size !== undefined && body.length !== grant.size) throw badRequest(`The file has ${body.length} bytes; the upload link was made for ${grant.size}`);
    const refused = await whyRefused(grant.contentType, body);
    if (refused) throw badRequest(refused);
    // Claim the key first (unique): of two uploads racing on one link, exactly one writes the file, the other gets 409.
    const claimed = await uploads.claim({ key, contentType: grant.contentType, size: body.length, userId: grant.userId, siteId: grant.siteId, createdAt: isoNow(clock) });
    if (!claimed) throw new HttpError(409, 'This upload link has already been used');
    try {
      await store.put(key, Readable.from(body));
    } catch (err) {
      await uploads.remove(key);
      throw err;
    }
    return { key, url: `/files/${urlPathOf(key)}` };
  }

  /** What is wrong with an uploaded file (null: nothing), checked whole before anything uses it. */
  async function whyRefused(contentType: string, body: Buffer): Promise<string | null> {
    if (!(ALLOWED_TYPES as readonly string[]).includes(contentType)) return `Files of type ${contentType || 'unknown'} are not accepted`;
    if (!body.length) return 'The file is empty';
    if (body.length > config.uploads.maxBytes) return `The file is larger than the ${config.uploads.maxBytes} bytes an upload may have`;
    if (!matchesType(contentType as AllowedType, body.subarray(0, 16))) return `The file is not a valid ${contentType}`;
    // The whole file: complete, within the pixel limit, no active content.
    const problem = await fileProblem(contentType as AllowedType, body);
    return problem ? `The file cannot be accepted as ${contentType}: ${problem}` : null;
  }

  const settling = new Map<string, Promise<boolean>>();

  /**
   * A file PUT straight into the bucket: checked, then moved from incoming/<key> to <key> with its
   * row; refused, it is removed and the reader is told why. false: no such upload.
   */
  function settle(key: string): Promise<boolean> {
    if (!store.presignPut || key.startsWith(INCOMING)) return Promise.resolve(false);
    let pending = settling.get(key);
    if (!pending) {
      pending = (async () => {
        const landed = await store.open(INCOMING + key);
        if (!landed) return false;
        const contentType = (landed.contentType ?? '').split(';')[0].trim().toLowerCase();
        let body: Buffer | null = null;
        if (landed.size <= config.uploads.maxBytes) {
          const chunks: Buffer[] = [];
          for await (const chunk of landed.stream) chunks.push(chunk as Buffer);
          body = Buffer.concat(chunks);
        } else landed.stream.destroy();
        const refused = body ? await whyRefused(contentType, body) : `The file is larger than the ${config.uploads.maxBytes} bytes an upload may have`;
        if (refused || !body) {
          await store.remove(INCOMING + key);
          throw badRequest(refused ?? 'The file cannot be accepted');
        }
        const meta = landed.metadata ?? {};
        const idOf = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : null);
        // Stored whole before its row: a row always names a file (two instances settling one upload write the same bytes).
        await store.put(key, Readable.from(body), { contentType });
        await uploads.register({ key, contentType, size: body.length, userId: idOf(meta.uploader), siteId: idOf(meta.site), createdAt: isoNow(clock) });
        await store.remove(INCOMING + key);
        return true;
      })().finally(() => settling.delete(key));
      settling.set(key, pending);
    }
    return pending;
  }

  /**
   * A file written before keys began with their site: the folder still holds it under that key, the
   * bucket (after storage:migrate) under its per-site key. null: no other place to look.
   */
  async function formerPlaceOf(key: string): Promise<string | null> {
    const site = await uploads.siteOf(key);
    return site === undefined && !key.startsWith('print-files/') ? null : perSiteKeyOf(key, site);
  }

  /** The file at its key, else where storage:migrate put a file of the former layout. */
  async function openStored(key: string) {
    const file = await store.open(key);
    if (file) return file;
    const moved = await formerPlaceOf(key);
    return moved ? store.open(moved) : null;
  }

  async function readStored(key: string) {
    const bytes = await store.read(key);
    if (bytes) return bytes;
    const moved = await formerPlaceOf(key);
    return moved ? store.read(moved) : null;
  }

  async function open(key: string) {
    let contentType = await uploads.contentTypeOf(key);
    if (!contentType && (await settle(key))) contentType = await uploads.contentTypeOf(key);
    const file = contentType ? await openStored(key) : null;
    if (!contentType || !file) throw notFound('File not found');
    return { ...file, contentType };
  }

  /**
   * The store every other module uses: a direct upload is checked on its first read, and nothing
   * under incoming/ (unchecked) is ever read; a file of the former layout is found where it was moved.
   */
  const files: FileStore = {
    ...store,
    async open(key) {
      if (key.startsWith(INCOMING)) return null;
      return (await openStored(key)) ?? ((await settle(key)) ? store.open(key) : null);
    },
    async read(key) {
      if (key.startsWith(INCOMING)) return null;
      return (await readStored(key)) ?? ((await settle(key)) ? store.read(key) : null);
    },
  };

  return { grantUpload, receive, open, files, allowedTypes: ALLOWED_TYPES };
}

export type UploadsService = ReturnType<typeof uploadsService>;
