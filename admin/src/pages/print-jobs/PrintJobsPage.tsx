import { useCallback } from 'react';
import { Title, useDataProvider } from 'react-admin';
import { Card } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { usePagedList } from '../../lib/usePagedList';
import { useWindowFocus } from '../../lib/useViewport';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';
import { DeletePrintJobButton } from './DeletePrintJobButton';
import { DownloadPdfButton } from './DownloadPdfButton';
import { PrintJobTable, type PrintJobActionColumn } from './PrintJobTable';

const ACTIONS: readonly PrintJobActionColumn[] = [
  { label: 'PDF', Cell: DownloadPdfButton },
  { label: '', Cell: DeletePrintJobButton },
];

function PrintJobsView() {
  usePageTitle('Jobs');
  const dataProvider = useDataProvider<AppDataProvider>();
  const fetchPage = useCallback((page: number) => dataProvider.getPrintJobs({ page, isPrinted: false }), [dataProvider]);
  const list = usePagedList(fetchPage);
  // Other operators print too: show the current queue whenever the operator comes back.
  useWindowFocus(list.reload);
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Jobs" />
      <PrintJobTable list={list} actionColumns={ACTIONS} />
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
