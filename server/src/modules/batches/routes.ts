// /api/batches: create a batch of print jobs, read it, list by state, its imposed sheets
// (batch-<number>.pdf), its jobs as its page lists them, the press sheets a site can use, and its
// moves on the floor. Tenancy is the service's (like print jobs).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idempotent } from '../../http/idempotency';
import { idParam, parse } from '../../http/validate';
import { baseUrlOf } from '../uploads/routes';
import { batchPdfFileName, type BatchSheetsProgress } from '../../../../common/api/batches';
import { progressBoard } from '../../http/progress';
import type { ImposeProgress } from './impose';
import { createBody, listQuery, sheetsPdfQuery, sheetsProgressQuery, sheetsQuery, stateBody } from './schema';
import type { BatchesService } from './service';

export function batchesRoutes(batches: BatchesService, config: Config): Router {
  const r = Router();
  const progress = progressBoard<ImposeProgress>();
  r.get('/', allow.ownSite.describe('Batches of one state, newest first', { query: listQuery }), async (req, res) => {
    ok(res, await batches.list(actorOf(req), parse(listQuery, req.query)));
  });

  r.post('/', allow.ownSite.describe('Create a batch of print jobs on a press sheet', { body: createBody }), idempotent, async (req, res) => {
    ok(res, await batches.create(actorOf(req), parse(createBody, req.body)));
  });

  // The press sheets the caller's site imposes on (Create batch offers them); before /:id.
  r.get('/sheets', allow.ownSite.describe('The site\'s press sheets with their sizes', { query: sheetsQuery }), async (req, res) => {
    ok(res, await batches.sheets(actorOf(req), parse(sheetsQuery, req.query).clientId));
  });

  r.get('/:id', allow.site.describe('One batch: code, barcode, moves, sheets, how to print it, jobs left out'), async (req, res) => {
    ok(res, await batches.get(actorOf(req), idParam(req.params.id)));
  });

  r.get('/:id/jobs', allow.site.describe('A batch\'s jobs as its page lists them'), async (req, res) => {
    ok(res, await batches.jobsOf(actorOf(req), idParam(req.params.id)));
  });

  // Written to a temporary file and streamed: a batch's sheets can be hundreds of megabytes. With
  // ?progress=<key>, how far it is can be read meanwhile at /:id/pdf/progress?key=<key>.
  r.get('/:id/pdf', allow.site.describe('The batch\'s imposed sheets (batch-<number>.pdf) with its cover', { query: sheetsPdfQuery }), async (req, res) => {
    const actor = actorOf(req);
    const { progress: key } = parse(sheetsPdfQuery, req.query);
    const onProgress = key ? (p: ImposeProgress) => progress.report(actor.id, key, p) : undefined;
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'presswork-batch-pdf-'));
    try {
      const file = path.join(dir, 'batch.pdf');
      const { batch } = await batches.sheetPdf(actor, idParam(req.params.id), file, { ownOrigin: baseUrlOf(req, config), onProgress }).finally(() => key && progress.finish(actor.id, key));
      const { size } = await fsp.stat(file);
      res.status(200).set({
        'Content-Type': 'application/pdf',
        'Content-Length': String(size),
        'Content-Disposition': `attachment; filename="${batchPdfFileName(batch.number)}"`,
        'Cache-Control': 'no-store',
      });
      await pipeline(fs.createReadStream(file), res);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  // How far the caller's sheets of this batch are; null when not known here (not begun, or another instance's).
  r.get('/:id/pdf/progress', allow.site.describe('How far a batch\'s sheets download has come', { query: sheetsProgressQuery }), async (req, res) => {
    const actor = actorOf(req);
    await batches.find(actor, idParam(req.params.id));
    const seen = progress.read(actor.id, parse(sheetsProgressQuery, req.query).key);
    const answer: BatchSheetsProgress | null = seen ? { ...seen.progress, finished: seen.finished } : null;
    ok(res, answer);
  });

  r.post('/:id/state', allow.site.describe('Move a batch on one step: open → printed → cut → packed', { body: stateBody }), idempotent, async (req, res) => {
    ok(res, await batches.changeState(actorOf(req), idParam(req.params.id), parse(stateBody, req.body).state));
  });

  return r;
}
