import { useCallback, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { Id } from '../../../../common/api/envelope';
import type { PrintJob } from '../../../../common/api/printProduction';
import { usePagedList, type PagedList } from '../../lib/usePagedList';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { PrintQueueView } from './PrintQueue';

// The Held tab's list and count, apart from its table (HeldJobs.tsx): the count shows on either tab,
// the table's code loads only when the tab opens.

export interface HeldJobs {
  list: PagedList<PrintJob>;
  /** How many jobs are held (with the view's filters); null until the server has said. */
  total: number | null;
}

/** The jobs preflight holds, with the queue's client and product type; their count for the tab. */
export function useHeldJobs({ clientId, productType }: Pick<PrintQueueView, 'clientId' | 'productType'>): HeldJobs {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [total, setTotal] = useState<number | null>(null);
  const fetchPage = useCallback(
    async (page: number) => {
      const answer = await dataProvider.getHeldPrintJobs({ page, clientId, productType });
      if (!answer) return answer; // signed out meanwhile (401)
      // A server older than preflight ignores held=1 and answers every job: show only held ones, and no count.
      const list = (answer.list ?? []).filter((job) => job.held === true);
      if (page === 1) setTotal(list.length === answer.list?.length && typeof answer.total === 'number' ? answer.total : null);
      return { ...answer, list };
    },
    [dataProvider, clientId, productType],
  );
  const list = usePagedList(fetchPage);
  const { remove } = list;
  // A job that leaves (approved, or clean on a re-check) leaves the count too, without a reload.
  const leave = useCallback(
    (id: Id) => {
      remove(id);
      setTotal((t) => (t === null ? t : Math.max(0, t - 1)));
    },
    [remove],
  );
  return { list: { ...list, remove: leave }, total };
}
