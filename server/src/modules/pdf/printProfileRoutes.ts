// POST /api/print-profiles (admin, multipart: file, siteId?) → {id, name, colorSpace, deviceClass, …}
// GET /api/print-profiles?siteId= → the profiles the caller may see (a site's and the instance's).
import { Router, type Request, type Response } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { fieldError } from '../../http/fieldErrors';
import { parse, rowId } from '../../http/validate';
import { MAX_PROFILE_BYTES, type PrintProfilesService } from './printProfiles';

const optionalSiteId = z.preprocess((v) => (v === '' || v === null ? undefined : v), rowId.optional());
export const printProfileUploadBody = z.object({ siteId: optionalSiteId });
export const printProfilesQuery = z.object({ siteId: optionalSiteId });

const oneFile = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_PROFILE_BYTES, files: 1, fields: 5 } }).single('file');

/** The multipart body read into memory; multer's refusals become a sentence naming the field. */
function readMultipart(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    oneFile(req, res, (err: unknown) => {
      if (!err) return resolve();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return reject(fieldError('file', `is too large for an ICC profile (${MAX_PROFILE_BYTES / 1024 / 1024} MB at most)`, 413));
        return reject(fieldError(err.field ?? 'file', `cannot be read: send one ICC profile as the multipart field "file" (${err.message})`));
      }
      reject(fieldError('file', 'cannot be read: send the profile as multipart/form-data, field "file"'));
    });
  });
}

export function printProfileRoutes(profiles: PrintProfilesService): Router {
  const r = Router();
  r.get('/', allow.ownSite.describe("The printers' colour profiles the caller may see: a site's own and those for every site", { query: printProfilesQuery }), async (req, res) => {
    ok(res, await profiles.list(actorOf(req), parse(printProfilesQuery, req.query).siteId));
  });
  r.post(
    '/',
    allow.admin.describe("Upload a printer's ICC output profile (CMYK, device class prtr), for one site or (no siteId) for every site", { body: printProfileUploadBody, bodyType: 'multipart/form-data' }),
    async (req, res) => {
      if (!req.is('multipart/form-data')) throw fieldError('file', 'is missing: send the profile as multipart/form-data, field "file"');
      await readMultipart(req, res);
      const body = parse(printProfileUploadBody, req.body ?? {});
      ok(res, await profiles.upload(actorOf(req), req.file ? { bytes: req.file.buffer } : undefined, body.siteId), 201);
    },
  );
  return r;
}
