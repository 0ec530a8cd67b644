import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import {
  Box,
  Card,
  CardContent,
  Checkbox,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import type { Id } from '../../../../common/api/envelope';
import type { PrintJobSort } from '../../../../common/api/printProduction';
import { PagedListError, PagedListFooter } from '../../components/PagedListParts';
import { PreflightApprovalLine } from '../../components/PreflightApprovalLine';
import { PreflightChip } from '../../components/PreflightChip';
import { reprintLine } from '../../../../common/api/reprints';
import { ShipBy } from '../../components/ShipBy';
import { formatDate, formatDateTime, formatTimeSince } from '../../lib/format';
import type { PagedList } from '../../lib/usePagedList';
import type { PrintJob } from '../../../../common/api/printProduction';
import { useNow, useSmallScreen } from '../../lib/useViewport';
import { ProductionNoteField } from './ProductionNoteField';
import type { JobSelection } from './useJobSelection';

/** A row's tick box (its label names the job for a screen reader). */
function SelectJob({ job, selection }: { job: PrintJob; selection: JobSelection }) {
  return (
    <Checkbox
      size="small"
      checked={selection.isSelected(job.id)}
      onChange={() => selection.toggle(job.id)}
      slotProps={{ input: { 'aria-label': `Select ${job.productName ?? 'job'} #${job.id}` } }}
      sx={{ p: 0.5 }}
    />
  );
}

/** A personalised job printed with a sample because the order lacked a value: check before printing. */
function NeedsReview({ job }: { job: PrintJob }) {
  const data = (job.data ?? {}) as { needsReview?: unknown; missingFields?: unknown };
  if (!data.needsReview) return null;
  const missing = Array.isArray(data.missingFields) ? data.missingFields.map(String).join(', ') : '';
  return (
    <Chip
      size="small"
      color="warning"
      label="Needs review"
      title={missing ? `The order had no value for: ${missing}. The sample was used.` : 'Personalisation needs checking'}
      aria-label={missing ? `Needs review: missing ${missing}` : 'Needs review'}
      sx={{ ml: 1 }}
    />
  );
}

/** Why a job is back in the queue: "Reprint: Print defect (shop)", who sent it back and when on hover. */
function ReprintReason({ job }: { job: PrintJob }) {
  const last = job.lastReprint;
  if (job.isPrinted || !job.isRePrinted || !last) return null;
  const line = reprintLine(last);
  return (
    <Chip
      size="small"
      color="info"
      variant="outlined"
      label={line}
      title={`${line}. Sent back by ${last.byName ?? 'someone'} on ${formatDateTime(last.at)}${last.note && last.reason !== 'other' ? `: ${last.note}` : ''}`}
      // Its label wraps rather than widening the Product column past a laptop's screen.
      sx={{ ml: 0.75, height: 'auto', minHeight: 20, fontSize: 11, maxWidth: 260, '& .MuiChip-label': { whiteSpace: 'normal', py: '1px' } }}
    />
  );
}

/** How long a row takes to fade out once it has left the list on the server. */
export const FADE_OUT_MS = 400;

export interface PrintJobActionProps {
  job: PrintJob;
  /** The job left this list on the server: fade the row out, then drop it. */
  leave: () => void;
}

export interface PrintJobActionColumn {
  label: string;
  Cell: ComponentType<PrintJobActionProps>;
}

function Preview({ job }: { job: PrintJob }) {
  if (!job.previewUrl) return null;
  return (
    <Box
      component="img"
      src={job.previewUrl}
      alt={`Preview of ${job.productName ?? 'the job'}`}
      loading="lazy"
      sx={{ width: 48, height: 48, objectFit: 'contain', display: 'block', bgcolor: 'grey.100', borderRadius: 0.5 }}
    />
  );
}

/** Since the store order was placed (spec §2); a job made by hand has no order, so since the job, and it says so. */
function TimeSinceOrder({ job, now }: { job: PrintJob; now: number }) {
  if (job.orderCreatedAt) return <span title={`Order placed ${formatDateTime(job.orderCreatedAt)}`}>{formatTimeSince(job.orderCreatedAt, now)}</span>;
  return (
    <>
      <span>{formatTimeSince(job.createdAt, now)}</span>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        since the job (no store order)
      </Typography>
    </>
  );
}

/** The list's order: a column and its direction; none is the list's own order (oldest first in Jobs). */
export interface PrintJobOrder {
  sort?: PrintJobSort;
  order: 'asc' | 'desc';
}

/** What the table shows beside the fixed columns. */
export interface PrintJobColumns {
  /** Admins see every site's jobs: the Client column. */
  showClient: boolean;
  /** Print History: Printed At and Printed By. */
  printed: boolean;
}

interface Column {
  label: string;
  sort?: PrintJobSort;
  align?: 'right';
  cell: (job: PrintJob, now: number) => ReactNode;
  sx?: object;
}

function columnsOf({ showClient, printed }: PrintJobColumns): Column[] {
  return [
    // A long store order name (a shop's prefix and suffix) wraps at its dashes, or anywhere, instead of widening the table.
    { label: 'Order', sort: 'orderName', cell: (job) => job.orderName ?? '', sx: { minWidth: 72, overflowWrap: 'anywhere' } },
    {
      label: 'Product',
      sort: 'productName',
      sx: { fontWeight: 600 },
      cell: (job) => (
        <>
          {job.productName}
          <NeedsReview job={job} />
          <ReprintReason job={job} />
          <PreflightChip held={job.held} preflight={job.preflight} />
          <PreflightApprovalLine approval={job.preflightApproval} />
        </>
      ),
    },
    ...(showClient ? [{ label: 'Client', sort: 'clientName', cell: (job: PrintJob) => job.clientName ?? '' } satisfies Column] : []),
    { label: 'Preview', cell: (job) => <Preview job={job} /> },
    { label: 'QTY', sort: 'quantity', align: 'right', cell: (job) => job.quantity },
    { label: 'Created At', sort: 'createdAt', cell: (job) => formatDate(job.createdAt), sx: { whiteSpace: 'nowrap' } },
    { label: 'Time Since Order', sort: 'orderCreatedAt', cell: (job, now) => <TimeSinceOrder job={job} now={now} />, sx: { minWidth: 84 } },
    // What still has to ship: Print History's jobs are printed, so it leaves the column out.
    ...(printed ? [] : [{ label: 'Ship by', cell: (job: PrintJob) => <ShipBy shipBy={job.shipBy} due={job.due} /> } satisfies Column]),
    ...(printed
      ? ([
          { label: 'Printed At', sort: 'printedAt', cell: (job) => formatDateTime(job.printedAt) },
          { label: 'Printed By', sort: 'printedByName', cell: (job) => job.printedByName ?? '' },
        ] satisfies Column[])
      : []),
    { label: 'Production Notes', cell: (job) => <ProductionNoteField job={job} />, sx: { minWidth: 112 } },
  ];
}

/** The columns a list can be sorted by, with their labels (a phone has no headers: it picks from these). */
export function sortableColumns(shown: PrintJobColumns): Array<{ label: string; sort: PrintJobSort }> {
  return columnsOf(shown).flatMap((c) => (c.sort ? [{ label: c.label, sort: c.sort }] : []));
}

/** A row that fades out once its job has left the list on the server. */
export function useLeaving(job: PrintJob, onRemoved: (id: Id) => void) {
  const [leaving, setLeaving] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const leave = () => {
    setLeaving(true);
    timer.current = setTimeout(() => onRemoved(job.id), FADE_OUT_MS);
  };
  const fade = { opacity: leaving ? 0 : 1, transition: `opacity ${FADE_OUT_MS}ms ease-out` };
  return { leaving, leave, fade };
}

interface RowProps {
  job: PrintJob;
  now: number;
  columns: Column[];
  actionColumns: readonly PrintJobActionColumn[];
  onRemoved: (id: Id) => void;
  selection?: JobSelection;
}

function PrintJobRow({ job, now, columns, actionColumns, onRemoved, selection }: RowProps) {
  const { leaving, leave, fade } = useLeaving(job, onRemoved);
  return (
    <TableRow
      data-testid={`print-job-${job.id}`}
      aria-hidden={leaving || undefined}
      selected={selection?.isSelected(job.id) ?? false}
      sx={{ ...fade, '&:last-child td': { borderBottom: 0 } }}
    >
      {selection ? (
        <TableCell padding="checkbox">
          <SelectJob job={job} selection={selection} />
        </TableCell>
      ) : null}
      {columns.map((c) => (
        <TableCell key={c.label} align={c.align} sx={c.sx}>
          {c.cell(job, now)}
        </TableCell>
      ))}
      {actionColumns.map(({ label, Cell }) => (
        <TableCell key={label || 'actions'} sx={{ whiteSpace: 'nowrap' }}>
          <Cell job={job} leave={leave} />
        </TableCell>
      ))}
    </TableRow>
  );
}

/** A phone's row: a card with what an operator needs, the actions under it (no table to scroll sideways). */
function PrintJobCard({ job, now, showClient, printed, actionColumns, onRemoved, selection }: Omit<RowProps, 'columns'> & PrintJobColumns) {
  const { leaving, leave, fade } = useLeaving(job, onRemoved);
  const secondary = [job.orderName ? `Order ${job.orderName}` : null, showClient ? job.clientName : null, `QTY ${job.quantity}`].filter(Boolean).join(' · ');
  return (
    <Card variant="outlined" component="li" data-testid={`print-job-${job.id}`} aria-hidden={leaving || undefined} sx={{ ...fade, listStyle: 'none' }}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, '&:last-child': { pb: 2 } }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
          {selection ? <SelectJob job={job} selection={selection} /> : null}
          <Preview job={job} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {job.productName}
              <NeedsReview job={job} />
              <ReprintReason job={job} />
              <PreflightChip held={job.held} preflight={job.preflight} />
            </Typography>
            <PreflightApprovalLine approval={job.preflightApproval} />
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {secondary}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              <TimeSinceOrder job={job} now={now} />
            </Typography>
            {printed ? null : (
              <Typography variant="body2" component="div">
                <ShipBy shipBy={job.shipBy} due={job.due} label />
              </Typography>
            )}
            {printed ? (
              <Typography variant="body2" color="text.secondary">
                Printed {formatDateTime(job.printedAt)}
                {job.printedByName ? ` by ${job.printedByName}` : ''}
              </Typography>
            ) : null}
          </Box>
        </Box>
        <ProductionNoteField job={job} />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {actionColumns.map(({ label, Cell }) => (
            <Cell key={label || 'actions'} job={job} leave={leave} />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The print-job table of the Jobs and Print History screens: fixed columns, then the screen's actions; cards on a phone. */
export function PrintJobTable({
  list,
  actionColumns,
  order = { order: 'asc' },
  onOrder,
  showClient = false,
  printed = false,
  selection,
}: {
  list: PagedList<PrintJob>;
  actionColumns: readonly PrintJobActionColumn[];
  /** Tick boxes for the bulk actions (a column, or on each card on a phone). */
  selection?: JobSelection;
  order?: PrintJobOrder;
  /** A click on a column's header: sort by it, or flip its direction. */
  onOrder?: (order: PrintJobOrder) => void;
} & Partial<PrintJobColumns>) {
  const now = useNow();
  const small = useSmallScreen();
  const columns = columnsOf({ showClient, printed });
  if (small) {
    return (
      <Box>
        <PagedListError list={list} />
        {selection && list.items.length ? (
          <Box component="label" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, pt: 1 }}>
            <Checkbox size="small" checked={selection.page.checked} indeterminate={selection.page.indeterminate} onChange={selection.page.toggle} sx={{ p: 0.5 }} />
            <Typography variant="body2">Select every job shown</Typography>
          </Box>
        ) : null}
        <Box component="ul" aria-label="Print jobs" sx={{ display: 'flex', flexDirection: 'column', gap: 1, p: 1, m: 0 }}>
          {list.items.map((job) => (
            <PrintJobCard key={job.id} job={job} now={now} showClient={showClient} printed={printed} actionColumns={actionColumns} onRemoved={list.remove} selection={selection} />
          ))}
        </Box>
        <PagedListFooter list={list} emptyText="No jobs found" />
      </Box>
    );
  }
  const header = (c: { label: string; sort?: PrintJobSort; align?: 'right' }) => {
    const active = Boolean(c.sort) && order.sort === c.sort;
    return (
      <TableCell
        key={c.label || 'actions'}
        align={c.align}
        sortDirection={active ? order.order : false}
        // Headers may wrap ("Time Since / Order") and only the sorted column holds an arrow: the columns stay narrow.
        sx={{ fontWeight: 700, verticalAlign: 'bottom' }}
      >
        {c.sort && onOrder ? (
          <TableSortLabel
            active={active}
            direction={active ? order.order : 'asc'}
            sx={active ? undefined : { '& .MuiTableSortLabel-icon': { display: 'none' } }}
            onClick={() => onOrder({ sort: c.sort, order: active && order.order === 'asc' ? 'desc' : 'asc' })}
          >
            {c.label}
          </TableSortLabel>
        ) : (
          c.label
        )}
      </TableCell>
    );
  };
  return (
    <Box>
      <PagedListError list={list} />
      {/* Its width does not count for the page's: a wide table scrolls inside the card, the page does not widen. */}
      <TableContainer sx={{ contain: 'inline-size' }}>
        {/* Narrow cell padding: History's twelve columns fit a laptop's content area. */}
        <Table size="small" aria-label="Print jobs" sx={{ '& .MuiTableCell-root': { px: 0.75 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}>
          <TableHead>
            <TableRow>
              {selection ? (
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={selection.page.checked}
                    indeterminate={selection.page.indeterminate}
                    disabled={list.items.length === 0}
                    onChange={selection.page.toggle}
                    slotProps={{ input: { 'aria-label': 'Select every job on this page' } }}
                    sx={{ p: 0.5 }}
                  />
                </TableCell>
              ) : null}
              {columns.map(header)}
              {actionColumns.map((c) => header(c))}
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((job) => (
              <PrintJobRow key={job.id} job={job} now={now} columns={columns} actionColumns={actionColumns} onRemoved={list.remove} selection={selection} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedListFooter list={list} emptyText="No jobs found" />
    </Box>
  );
}
