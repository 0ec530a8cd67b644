import { lazy, Suspense, useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Title } from 'react-admin';
import { Card, Tab, Tabs } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { useWindowFocus } from '../../lib/useViewport';
import { usePageTitle } from '../../layout/usePageTitle';
import type { BulkButton } from './BulkActions';
import { DeletePrintJobButton } from './DeletePrintJobButton';
import { DownloadPdfButton } from './DownloadPdfButton';
import { PrintJobTable, type PrintJobActionColumn } from './PrintJobTable';
import { PrintQueueFilters, usePrintQueue } from './PrintQueue';
import { JobHistoryCell } from './JobHistoryCell';
import { HIGHLIGHT_SX, useJobHighlight } from './useJobHighlight';
import { useHeldJobs } from './useHeldJobs';

// Not needed for the queue's first rows: the bulk bar (it shows once a job is ticked, with its dialogs)
// and the Held tab's table load beside them, each in its own Suspense.
const BulkActionsBar = lazy(() => import('./BulkActions').then((m) => ({ default: m.BulkActionsBar })));
const HeldJobList = lazy(() => import('./HeldJobs'));

// The queue's bulk actions: one merged PDF or a batch on press sheets, then Mark printed; Delete as the row's bin does.
const BULK_ACTIONS: readonly BulkButton[] = ['download', 'batch', 'markPrinted', 'delete'];

const ACTIONS: readonly PrintJobActionColumn[] = [
  { label: 'PDF', Cell: DownloadPdfButton },
  { label: 'History', Cell: JobHistoryCell },
  { label: '', Cell: DeletePrintJobButton },
];

export type JobsTab = 'ready' | 'held';

/** The tab lives in the address (?tab=held), so Back, a reload and a shared link keep it. */
function useJobsTab(): [JobsTab, (tab: JobsTab) => void] {
  const [params, setParams] = useSearchParams();
  const tab: JobsTab = params.get('tab') === 'held' ? 'held' : 'ready';
  const setTab = useCallback(
    (next: JobsTab) =>
      setParams(
        (current) => {
          const changed = new URLSearchParams(current);
          if (next === 'held') changed.set('tab', 'held');
          else changed.delete('tab');
          return changed;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [tab, setTab];
}

function PrintJobsView() {
  usePageTitle('Jobs');
  const [tab, setTab] = useJobsTab();
  const { list, view, setView, isAdmin, selection } = usePrintQueue(false);
  // Counted on either tab: an operator on Ready sees that some jobs wait for a decision.
  const held = useHeldJobs(view);
  // ?job=<id>: opened on that job (Needs attention, the header search), highlighted.
  const highlight = useJobHighlight(tab === 'held' ? held.list : list, tab === 'held' ? 'held-job-' : 'print-job-');
  // Other operators print and approve too: show the current lists whenever the operator comes back.
  const { reload: reloadReady } = list;
  const { reload: reloadHeld } = held.list;
  const reloadAll = useCallback(() => {
    reloadReady();
    reloadHeld();
  }, [reloadReady, reloadHeld]);
  useWindowFocus(reloadAll);
  const changeTab = (next: JobsTab) => {
    // A job approved or cleared on Held is in the queue now (and one held meanwhile is not).
    if (next === 'ready') reloadReady();
    else reloadHeld();
    setTab(next);
  };
  return (
    <Card sx={{ mt: 2, mb: 4, ...HIGHLIGHT_SX }}>
      <Title title="Jobs" />
      <Tabs value={tab} onChange={(_event, next: JobsTab) => changeTab(next)} aria-label="Jobs lists" sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="ready" label="Ready" id="jobs-tab-ready" aria-controls="jobs-panel" />
        <Tab value="held" label={held.total === null ? 'Held' : `Held (${held.total})`} id="jobs-tab-held" aria-controls="jobs-panel" />
      </Tabs>
      <div role="tabpanel" id="jobs-panel" aria-labelledby={`jobs-tab-${tab}`}>
        <PrintQueueFilters view={view} setView={setView} isAdmin={isAdmin} sortable={tab === 'ready'} />
        {highlight.missing}
        {tab === 'held' ? (
          <Suspense fallback={null}>
            <HeldJobList list={held.list} showClient={isAdmin} />
          </Suspense>
        ) : (
          <>
            <Suspense fallback={null}>
              <BulkActionsBar selection={selection} list={list} from="jobs" actions={BULK_ACTIONS} />
            </Suspense>
            <PrintJobTable list={list} actionColumns={ACTIONS} order={view} onOrder={setView} showClient={isAdmin} selection={selection} />
          </>
        )}
      </div>
    </Card>
  );
}

/** /print-jobs: jobs ready for print and not yet printed; on the Held tab, the ones preflight stopped. */
export function PrintJobsPage() {
  return (
    <RequireAccess resource="print-jobs" action="list">
      <PrintJobsView />
    </RequireAccess>
  );
}

export default PrintJobsPage;
