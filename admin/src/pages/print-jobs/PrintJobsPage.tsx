import { Title } from 'react-admin';
import { Card } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { useWindowFocus } from '../../lib/useViewport';
import { usePageTitle } from '../../layout/usePageTitle';
import { DeletePrintJobButton } from './DeletePrintJobButton';
import { DownloadPdfButton } from './DownloadPdfButton';
import { PrintJobTable, type PrintJobActionColumn } from './PrintJobTable';
import { PrintQueueFilters, usePrintQueue } from './PrintQueue';

const ACTIONS: readonly PrintJobActionColumn[] = [
  { label: 'PDF', Cell: DownloadPdfButton },
  { label: '', Cell: DeletePrintJobButton },
];

function PrintJobsView() {
  usePageTitle('Jobs');
  const { list, view, setView, isAdmin } = usePrintQueue(false);
  // Other operators print too: show the current queue whenever the operator comes back.
  useWindowFocus(list.reload);
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Jobs" />
      <PrintQueueFilters view={view} setView={setView} isAdmin={isAdmin} />
      <PrintJobTable list={list} actionColumns={ACTIONS} order={view} onOrder={setView} showClient={isAdmin} />
    </Card>
  );
}

/** /print-jobs: jobs ready for print and not yet printed. */
export function PrintJobsPage() {
  return (
    <RequireAccess resource="print-jobs" action="list">
      <PrintJobsView />
    </RequireAccess>
  );
}

export default PrintJobsPage;
