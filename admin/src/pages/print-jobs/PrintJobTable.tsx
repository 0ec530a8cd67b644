import { useEffect, useRef, useState, type ComponentType } from 'react';
import {
  Box,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { Id } from '../../../../common/api/envelope';
import type { PrintJob } from '../../../../common/api/printProduction';
import { PagedListError, PagedListFooter } from '../../components/PagedListParts';
import { formatDate, formatDateTime, formatTimeSince } from '../../lib/format';
import type { PagedList } from '../../lib/usePagedList';
import { useNow } from '../../lib/useViewport';
import { ProductionNoteField } from './ProductionNoteField';

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
      sx={{ width: 56, height: 56, objectFit: 'contain', display: 'block', bgcolor: 'grey.100', borderRadius: 0.5 }}
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

function PrintJobRow({
  job,
  now,
  actionColumns,
  onRemoved,
}: {
  job: PrintJob;
  now: number;
  actionColumns: readonly PrintJobActionColumn[];
  onRemoved: (id: Id) => void;
}) {
  const [leaving, setLeaving] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const leave = () => {
    setLeaving(true);
    timer.current = setTimeout(() => onRemoved(job.id), FADE_OUT_MS);
  };

  return (
    <TableRow
      data-testid={`print-job-${job.id}`}
      aria-hidden={leaving || undefined}
      sx={{ opacity: leaving ? 0 : 1, transition: `opacity ${FADE_OUT_MS}ms ease-out`, '&:last-child td': { borderBottom: 0 } }}
    >
      <TableCell sx={{ fontWeight: 600 }}>
        {job.productName}
        {job.orderName ? (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', fontWeight: 400 }}>
            Order {job.orderName}
          </Typography>
        ) : null}
        <NeedsReview job={job} />
      </TableCell>
      <TableCell>
        <Preview job={job} />
      </TableCell>
      <TableCell align="right">{job.quantity}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(job.createdAt)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        <TimeSinceOrder job={job} now={now} />
      </TableCell>
      <TableCell sx={{ minWidth: 200 }}>
        <ProductionNoteField job={job} />
      </TableCell>
      {actionColumns.map(({ label, Cell }) => (
        <TableCell key={label || 'actions'} sx={{ whiteSpace: 'nowrap' }}>
          <Cell job={job} leave={leave} />
        </TableCell>
      ))}
    </TableRow>
  );
}

/** The print-job table of the Jobs and Print History screens: fixed columns, then the screen's actions. */
export function PrintJobTable({
  list,
  actionColumns,
}: {
  list: PagedList<PrintJob>;
  actionColumns: readonly PrintJobActionColumn[];
}) {
  const now = useNow();
  const columns = ['Product', 'Preview', 'QTY', 'Created At', 'Time Since Order', 'Production Notes', ...actionColumns.map((c) => c.label)];

  return (
    <Box>
      <PagedListError list={list} />
      <TableContainer>
        <Table size="small" aria-label="Print jobs">
          <TableHead>
            <TableRow>
              {columns.map((label, i) => (
                <TableCell key={`${label}-${i}`} align={label === 'QTY' ? 'right' : 'left'} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                  {label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((job) => (
              <PrintJobRow key={job.id} job={job} now={now} actionColumns={actionColumns} onRemoved={list.remove} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedListFooter list={list} emptyText="No jobs found" />
    </Box>
  );
}
