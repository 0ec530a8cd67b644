import { Title } from 'react-admin';
import { Card } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { HistoryPdfButton } from '../print-jobs/DownloadPdfButton';
import { PrintJobTable, type PrintJobActionColumn } from '../print-jobs/PrintJobTable';
import { PrintQueueFilters, usePrintQueue } from '../print-jobs/PrintQueue';
import { ReprintButton } from './ReprintButton';

// Spec §2: the Jobs columns, the last one Reprint; the PDF of a printed job downloads again here.
const ACTIONS: readonly PrintJobActionColumn[] = [
  { label: 'PDF', Cell: HistoryPdfButton },
  { label: 'Reprint', Cell: ReprintButton },
];

function PrintHistoryView() {
  usePageTitle('Print History');
  const { list, view, setView, isAdmin } = usePrintQueue(true);
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Print History" />
      <PrintQueueFilters view={view} setView={setView} isAdmin={isAdmin} printed />
      <PrintJobTable list={list} actionColumns={ACTIONS} order={view} onOrder={setView} showClient={isAdmin} printed />
    </Card>
  );
}

/** /print-history: jobs ready for print and already printed, most recently printed first. */
export function PrintHistoryPage() {
  return (
    <RequireAccess resource="print-history" action="list">
      <PrintHistoryView />
    </RequireAccess>
  );
}

export default PrintHistoryPage;
