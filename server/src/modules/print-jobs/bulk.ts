// Bulk actions on Jobs and Print History: each job goes through its own button's service call,
// so the state rules, the 409 sentences and who-did-it are the single path's; one refusal never
// stops the others.
import { HttpError } from '../../http/errors';
import type { Actor } from '../../http/types';
import type { BulkAction, BulkResult } from '../../../../common/api/bulk';
import type { PrintJobsService } from './service';
import { parse } from '../../http/validate';
import { reprintWhy, type ReprintWhyInput } from './schema';

/** The ids once each, in the order given (a double-listed id is not refused as "already printed" by itself). */
export const uniqueIds = (ids: number[]): number[] => [...new Set(ids)];

export function bulkPrintJobActions(jobs: Pick<PrintJobsService, 'markPrinted' | 'reprint' | 'remove'>) {
  const actions: Record<BulkAction, (actor: Actor, id: number, why: ReprintWhyInput | undefined) => Promise<unknown>> = {
    markPrinted: jobs.markPrinted,
    reprint: (actor, id, why) => jobs.reprint(actor, id, why!),
    delete: jobs.remove,
  };

  /**
   * One after another: each is its own transaction, as when clicked one by one. A reprint's reason
   * is checked once, before any job (a 400 naming the field, nothing changed).
   */
  async function run(actor: Actor, ids: number[], action: BulkAction, input: Partial<Record<keyof ReprintWhyInput, unknown>> = {}): Promise<BulkResult> {
    const why = action === 'reprint' ? parse(reprintWhy, input) : undefined;
    const result: BulkResult = { done: [], refused: [] };
    for (const id of uniqueIds(ids)) {
      try {
        await actions[action](actor, id, why);
        result.done.push(id);
      } catch (err) {
        // A refusal (404 for another site's job, a 409 of the rules) is reported; a fault is not a refusal.
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        result.refused.push({ id, error: err.message });
      }
    }
    return result;
  }

  return { run };
}

export type BulkPrintJobActions = ReturnType<typeof bulkPrintJobActions>;
