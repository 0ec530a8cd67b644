import { useState, type ReactNode } from 'react';
import { Title, useDataProvider } from 'react-admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { PrintReports } from '../../../../common/api/printProduction';
import { DayInput } from '../../components/DayInput';
import { RequireAccess } from '../../components/RequireAccess';
import { addDays, errorMessage, formatDate, formatTimeSince, toDayString } from '../../lib/format';
import { useNow } from '../../lib/useViewport';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';
import DownloadIcon from '@mui/icons-material/Download';
import { saveBlob } from '../../lib/download';
import { PrintedChart } from './PrintedChart';
import { formatRate } from './reportDays';
import { formatHours, reportCsv, reportFileName } from './reportCsv';
import { ReprintsByProduct, ReprintsByReason, ReprintsByResponsible } from './ReprintCharts';

/** Shown in place of the on-time rate while no line of the period was shipped with a ship-by. */
export const ON_TIME_PENDING = 'No line with a ship-by date was shipped in this period';

export const DEFAULT_PERIOD_DAYS = 30;

/** The last 30 days, today included. */
export function defaultPeriod(today = new Date()): { from: string; to: string } {
  const to = toDayString(today);
  return { from: addDays(to, -(DEFAULT_PERIOD_DAYS - 1)), to };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function Figure({ label, value, note }: { label: string; value: ReactNode; note?: string }) {
  return (
    <Box sx={{ minWidth: 140, maxWidth: 220 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
        {value}
      </Typography>
      {note ? (
        <Typography variant="caption" color="text.secondary" component="p">
          {note}
        </Typography>
      ) : null}
    </Box>
  );
}

/** The figures of the screen as a CSV file (built from the same answer). */
function DownloadCsv({ report }: { report: PrintReports }) {
  return (
    <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={() => saveBlob(new Blob([reportCsv(report)], { type: 'text/csv;charset=utf-8' }), reportFileName(report))}>
      Download CSV
    </Button>
  );
}

function Report({ report }: { report: PrintReports }) {
  const now = useNow();
  // The server's totals and series cover the whole range (by day, week or month), so they agree with Per product.
  const { reprints, totals, bucket, shipping } = report;
  const shipped = shipping?.shippedLines ?? 0;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Card>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'flex-start' }}>
          <Figure label="Jobs printed" value={totals.jobs} />
          <Figure label="Items printed" value={totals.quantity} />
          <Figure label="Reprint rate" value={formatRate(reprints?.rate)} />
          <Figure label="Reprints" value={`${reprints?.reprinted ?? 0} of ${reprints?.printed ?? 0}`} />
          <Figure
            label="Average order to ship"
            value={shipping?.averageOrderToShipHours != null ? formatHours(shipping.averageOrderToShipHours) : '—'}
            note={`${shipped} line${shipped === 1 ? '' : 's'} shipped`}
          />
          <Figure label="On-time rate" value={shipping?.onTime ? formatRate(shipping.onTime.rate) : '—'} note={shipping?.onTime ? `${shipping.onTime.onTime} of ${shipping.onTime.counted} by their ship-by` : ON_TIME_PENDING} />
          <Box sx={{ flex: 1 }} />
          <DownloadCsv report={report} />
        </CardContent>
      </Card>
      <Section title={`Jobs printed per ${bucket}`}>
        <PrintedChart bucket={bucket} periods={report.printedPerPeriod} />
      </Section>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr 1fr' }, alignItems: 'start' }}>
        <Section title="Reprints by reason">
          <ReprintsByReason reprints={reprints} />
        </Section>
        <Section title="Reprints by responsibility">
          <ReprintsByResponsible reprints={reprints} />
        </Section>
        <Section title="Reprints by product">
          <ReprintsByProduct reprints={reprints} />
        </Section>
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, alignItems: 'start' }}>
        <Section title="Per product">
          {report.perProduct?.length ? (
            <Table size="small" aria-label="Per product">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ fontWeight: 700 }}>Product</TableCell>
                  <TableCell align="right" sx={{ fontWeight: 700 }}>
                    Jobs
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 700 }}>
                    QTY
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {report.perProduct.map((p, i) => (
                  <TableRow key={`${p.productName ?? ''}-${i}`}>
                    <TableCell>{p.productName || '(no name)'}</TableCell>
                    <TableCell align="right">{p.jobs}</TableCell>
                    <TableCell align="right">{p.quantity}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <Typography color="text.secondary">Nothing printed in this period</Typography>
          )}
        </Section>
        <Section title="Oldest unprinted jobs">
          {report.oldestUnprinted?.length ? (
            <Table size="small" aria-label="Oldest unprinted jobs">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ fontWeight: 700 }}>Product</TableCell>
                  <TableCell align="right" sx={{ fontWeight: 700 }}>
                    QTY
                  </TableCell>
                  <TableCell sx={{ fontWeight: 700 }}>Created At</TableCell>
                  <TableCell sx={{ fontWeight: 700 }}>Age</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {report.oldestUnprinted.map((job) => (
                  <TableRow key={job.id}>
                    <TableCell>{job.productName}</TableCell>
                    <TableCell align="right">{job.quantity}</TableCell>
                    <TableCell>{formatDate(job.createdAt)}</TableCell>
                    <TableCell>{formatTimeSince(job.createdAt, now)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <Typography color="text.secondary">No jobs found</Typography>
          )}
        </Section>
      </Box>
    </Box>
  );
}

function PrintReportsView() {
  usePageTitle('Print Reports');
  const dataProvider = useDataProvider<AppDataProvider>();
  const [period, setPeriod] = useState(defaultPeriod);
  // A field whose text is not a date (it says why); the period keeps its last day meanwhile.
  const [unreadable, setUnreadable] = useState({ from: false, to: false });
  const setEnd = (end: 'from' | 'to') => (day: string | null) => {
    setUnreadable((u) => ({ ...u, [end]: day === null }));
    if (day !== null) setPeriod((p) => ({ ...p, [end]: day }));
  };
  const readable = !unreadable.from && !unreadable.to;
  const valid = readable && Boolean(period.from && period.to && period.from <= period.to);
  const report = useQuery({
    queryKey: ['print-jobs', 'reports', period],
    queryFn: () => dataProvider.getPrintReports(period),
    enabled: valid,
    retry: false,
    placeholderData: keepPreviousData,
  });

  return (
    <Box sx={{ mt: 2, mb: 4, display: 'grid', gap: 2 }}>
      <Title title="Print Reports" />
      <Card>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          <DayInput label="From" value={period.from} onChange={setEnd('from')} sx={{ width: 190 }} />
          <DayInput label="To" value={period.to} onChange={setEnd('to')} sx={{ width: 190 }} />
          {report.isFetching ? <CircularProgress size={20} aria-label="Loading report" /> : null}
          {readable && !valid ? (
            <Typography color="error" role="alert">
              Pick a start date on or before the end date
            </Typography>
          ) : null}
        </CardContent>
      </Card>
      {valid && report.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(report.error)}
        </Typography>
      ) : null}
      {valid && report.data ? <Report report={report.data} /> : null}
    </Box>
  );
}

/** /reports: what was printed in a period, reprints and the oldest waiting jobs. */
export function PrintReportsPage() {
  return (
    <RequireAccess resource="reports" action="list">
      <PrintReportsView />
    </RequireAccess>
  );
}

export default PrintReportsPage;
