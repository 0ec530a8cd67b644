import { Title } from 'react-admin';
import { Card } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { BulkActionsBar, type BulkButton } from '../print-jobs/BulkActions';
import { HistoryPdfButton } from '../print-jobs/DownloadPdfButton';
import { PrintJobTable, type PrintJobActionColumn } from '../print-jobs/PrintJobTable';
import { PrintQueueFilters, usePrintQueue } from '../print-jobs/PrintQueue';
import { ReprintButton, ReprintDialogHost } from './ReprintButton';
import { JobHistoryCell } from '../print-jobs/JobHistoryCell';

// Spec §2: the Jobs columns, the last one Reprint; the PDF of a printed job downloads again here.
// Printed jobs again in one file (nothing marked), or back to the queue together.
const BULK_ACTIONS: readonly BulkButton[] = ['download', 'reprint'];

const ACTIONS: readonly PrintJobActionColumn[] = [
  { label: 'PDF', Cell: HistoryPdfButton },
  { label: 'History', Cell: JobHistoryCell },
  { label: 'Reprint', Cell: ReprintButton },
];

function PrintHistoryView() {
  usePageTitle('Print History');
  const { list, view, setView, isAdmin, selection } = usePrintQueue(true);
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Print History" />
      <PrintQueueFilters view={view} setView={setView} isAdmin={isAdmin} printed />
      <BulkActionsBar selection={selection} list={list} from="history" actions={BULK_ACTIONS} />
      <ReprintDialogHost>
        <PrintJobTable list={list} actionColumns={ACTIONS} order={view} onOrder={setView} showClient={isAdmin} printed selection={selection} />
      </ReprintDialogHost>
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
