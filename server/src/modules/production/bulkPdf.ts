// Many jobs' print files as one PDF (the Jobs and Print History bulk Download): each job's own
// stored file (printFile, the bytes a single download gives), its pages copied in the order given
// with their trim and bleed boxes. One job's file is parsed at a time, so a few hundred jobs do
// not hold a few hundred parsed documents.
import { PDFDocument } from 'pdf-lib';
import { HttpError } from '../../http/errors';
import type { Actor } from '../../http/types';
import type { PrintPdfFrom } from '../../../../common/api/printProduction';
import type { BulkRefusal } from '../../../../common/api/bulk';
import { uniqueIds } from '../print-jobs/bulk';
import type { PrintJob } from '../print-jobs/repo';
import { JOB_NOT_FOUND, type PrintJobsService } from '../print-jobs/service';
import type { ProductionService } from './service';

/** The sentence of a refused merge: every job that stops it, so the operator fixes them in one go. */
export function mergeRefusal(refused: BulkRefusal[]): HttpError {
  const list = refused.map((r) => `#${r.id}: ${r.error}`).join('; ');
  const status = refused.every((r) => r.error === JOB_NOT_FOUND) ? 404 : 409;
  return new HttpError(status, `${refused.length === 1 ? 'One job' : `${refused.length} jobs`} cannot be in the download — ${list}`, { refused });
}

export function bulkPrintFiles(production: Pick<ProductionService, 'printFile' | 'downloadRefusal'>, printJobs: Pick<PrintJobsService, 'get' | 'markDownloaded'>) {
  /**
   * The merged file, or a refusal naming every job that cannot be in it (never a silent gap).
   * From the Jobs queue each job is then marked downloaded as its own download would be.
   */
  async function download(actor: Actor, ids: number[], opts: { from?: PrintPdfFrom; ownOrigin: string }): Promise<Uint8Array> {
    const fromQueue = opts.from === 'jobs';
    const jobs: PrintJob[] = [];
    const refused: BulkRefusal[] = [];
    for (const id of uniqueIds(ids)) {
      try {
        const job = await printJobs.get(actor, id);
        const refusal = production.downloadRefusal(job, { fromQueue });
        if (refusal) refused.push({ id, error: refusal.message });
        else jobs.push(job);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        refused.push({ id, error: err.message });
      }
    }
    if (refused.length) throw mergeRefusal(refused);

    const merged = await PDFDocument.create();
    merged.setTitle(`Print files of ${jobs.length} job${jobs.length === 1 ? '' : 's'}`);
    for (const job of jobs) {
      const { pdf } = await production.printFile(job, { ownOrigin: opts.ownOrigin });
      // Parsed, copied and let go before the next job's file is read.
      const source = await PDFDocument.load(pdf, { updateMetadata: false });
      for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
    }
    const bytes = await merged.save();
    if (fromQueue) for (const job of jobs) await printJobs.markDownloaded(actor, job.id, { fromQueue });
    return bytes;
  }

  return { download };
}

export type BulkPrintFiles = ReturnType<typeof bulkPrintFiles>;
