import { useCallback } from 'react';
import { Title, useDataProvider } from 'react-admin';
import { Card } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { usePagedList } from '../../lib/usePagedList';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';
import { PrintJobTable, type PrintJobActionColumn } from '../print-jobs/PrintJobTable';
import { ReprintButton } from './ReprintButton';

const ACTIONS: readonly PrintJobActionColumn[] = [{ label: 'Reprint', Cell: ReprintButton }];

function PrintHistoryView() {
  usePageTitle('Print History');
  const dataProvider = useDataProvider<AppDataProvider>();
  const fetchPage = useCallback((page: number) => dataProvider.getPrintJobs({ page, isPrinted: true }), [dataProvider]);
  const list = usePagedList(fetchPage);
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Print History" />
      <PrintJobTable list={list} actionColumns={ACTIONS} />
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
