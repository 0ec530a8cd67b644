import express, { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { notFound } from '../../http/errors';
import { parse } from '../../http/validate';
import type { Config } from '../../config';
import { ALLOWED_TYPES } from './sniff';
import type { UploadsService } from './service';

const grantBody = z.object({
  serverSidePath: z.string().trim().min(1, 'is required').max(300),
  contentType: z.enum(ALLOWED_TYPES),
});

export function baseUrlOf(req: Request, config: Config): string {
  return config.publicUrl ?? `${req.protocol}://${req.get('host')}`;
}

const keyOf = (req: Request) => {
  const parts = (req.params as { key?: string[] }).key ?? [];
  const key = parts.join('/');
  if (!key || parts.some((p) => p === '..' || p === '.' || p === '')) throw notFound('File not found');
  return key;
};

/** POST /api/users/me/get-upload-url → data is the signed URL (spec §7). */
export function uploadGrantRoutes(uploads: UploadsService, config: Config): Router {
  const r = Router();
  r.post('/me/get-upload-url', allow.signedIn.describe('A signed upload URL (15 minutes) to PUT one file to', { body: grantBody }), idempotent, async (req, res) => {
    const grant = uploads.grantUpload(actorOf(req), parse(grantBody, req.body), baseUrlOf(req, config));
    res.set('X-File-Url', grant.fileUrl);
    ok(res, grant.url);
  });
  return r;
}

/** PUT /uploads/<key>?… (the signed URL), and GET /files/<key> and /uploads/<key> (the stored file). */
export function fileRoutes(uploads: UploadsService, config: Config): Router {
  const r = Router();
  r.put('/uploads/*key', allow.credential('the signed upload URL (signature, expiry, content type)').describe('Upload a file to a signed upload URL, once, with its Content-Type', { bodyType: 'application/octet-stream' }), express.raw({ type: () => true, limit: config.uploads.maxBytes }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    ok(res, await uploads.receive(keyOf(req), req.query as Record<string, unknown>, req.get('content-type'), body));
  });
  // Stored files: their unguessable key is the capability (images in pages load them without a session).
  const serveFile: RequestHandler = async (req, res) => {
    const file = await uploads.open(keyOf(req));
    res.set({
      'Content-Type': file.contentType,
      'Content-Length': String(file.size),
      'Cache-Control': 'private, max-age=86400, immutable',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'X-Content-Type-Options': 'nosniff',
    });
    file.stream.pipe(res);
  };
  r.get('/files/*key', allow.public.describe('A stored file by its unguessable address'), serveFile);
  // The signed upload URL without its query serves the object too, as a presigned S3 PUT URL does
  // (same key, same rules as /files/; the signature only ever grants the PUT).
  r.get('/uploads/*key', allow.public.describe('A stored file at its upload address'), serveFile);
  return r;
}
