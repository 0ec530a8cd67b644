// Many jobs' print files as one PDF (the Jobs and Print History bulk Download): each job's own
// stored file (printFile, the bytes a single download gives), its pages copied in the order given
// with their trim and bleed boxes, written to disk one job at a time and streamed from there.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { HttpError } from '../../http/errors';
import type { Actor } from '../../http/types';
import type { PrintPdfFrom } from '../../../../common/api/printProduction';
import { BULK_PDF_FILE_NAME, type BulkRefusal } from '../../../../common/api/bulk';
import { concatPdfs, writeFileInChunks } from '../pdf';
import { uniqueIds } from '../print-jobs';
import type { PrintJob } from '../print-jobs';
import { JOB_NOT_FOUND, type PrintJobsService } from '../print-jobs';
import type { ProductionService } from './service';

/** The sentence of a refused merge: every job that stops it, so the operator fixes them in one go. */
export function mergeRefusal(refused: BulkRefusal[]): HttpError {
  const list = refused.map((r) => `#${r.id}: ${r.error}`).join('; ');
  const status = refused.every((r) => r.error === JOB_NOT_FOUND) ? 404 : 409;
  return new HttpError(status, `${refused.length === 1 ? 'One job' : `${refused.length} jobs`} cannot be in the download — ${list}`, { refused });
}

export function bulkPrintFiles(production: Pick<ProductionService, 'printFile' | 'downloadRefusal'>, printJobs: Pick<PrintJobsService, 'find' | 'markDownloaded'>) {
  /**
   * The merged file, or a refusal naming every job that cannot be in it (never a silent gap).
   * From the Jobs queue each job is then marked downloaded as its own download would be.
   */
  async function download(actor: Actor, ids: number[], opts: { from?: PrintPdfFrom; ownOrigin: string }): Promise<{ stream: Readable; size: number }> {
    const fromQueue = opts.from === 'jobs';
    const jobs: PrintJob[] = [];
    const refused: BulkRefusal[] = [];
    for (const id of uniqueIds(ids)) {
      try {
        const job = await printJobs.find(actor, id);
        const refusal = production.downloadRefusal(job, { fromQueue });
        if (refusal) refused.push({ id, error: refusal.message });
        else jobs.push(job);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        refused.push({ id, error: err.message });
      }
    }
    if (refused.length) throw mergeRefusal(refused);

    // Written to a file as it is made, then streamed: memory holds one job's file at a time.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'presswork-print-files-'));
    const file = path.join(dir, BULK_PDF_FILE_NAME);
    try {
      async function* printFiles() {
        for (const job of jobs) yield (await production.printFile(job, { ownOrigin: opts.ownOrigin })).pdf;
      }
      await writeFileInChunks(file, (write) => concatPdfs(printFiles(), write, { title: `Print files of ${jobs.length} job${jobs.length === 1 ? '' : 's'}` }));
      if (fromQueue) for (const job of jobs) await printJobs.markDownloaded(actor, job.id, { fromQueue });
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true });
      throw err;
    }
    const { size } = await fs.stat(file);
    const stream = createReadStream(file);
    // Gone once sent (or the client left).
    stream.on('close', () => void fs.rm(dir, { recursive: true, force: true }));
    return { stream, size };
  }

  return { download };
}

export type BulkPrintFiles = ReturnType<typeof bulkPrintFiles>;
