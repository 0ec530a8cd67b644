import { useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import { Box, Card, CardContent, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { Id } from '../../../../common/api/envelope';
import { PagedListError, PagedListFooter } from '../../components/PagedListParts';
import { findingsLabel } from '../../components/PreflightChip';
import { PreflightFindingList } from '../../components/PreflightFindingList';
import { ShipBy } from '../../components/ShipBy';
import type { PagedList } from '../../lib/usePagedList';
import { useSmallScreen } from '../../lib/useViewport';
import { markedFindingOf } from '../../providers/printProduction';
import type { PrintJob } from '../../../../common/api/printProduction';
import { HeldJobActions } from './HeldJobActions';
import { MarkedPage } from './MarkedPage';
import { useLeaving } from './PrintJobTable';

export const MOVED_TO_JOBS = 'No problems found: moved to Jobs';

/** A held row's job and its ways out; a re-check that still holds it shows the new findings in place. */
function useHeldJob(initial: PrintJob, onRemoved: (id: Id) => void) {
  const notify = useNotify();
  const [job, setJob] = useState(initial);
  useEffect(() => setJob(initial), [initial]);
  const { leaving, leave, fade } = useLeaving(job, onRemoved);
  const onApproved = () => {
    notify('Approved: it prints as it is, and is in Jobs', { type: 'success' });
    leave();
  };
  const onRechecked = (checked: PrintJob) => {
    if (!checked.held) {
      const warnings = findingsLabel(checked.preflight ?? []);
      notify(warnings ? `No errors found: moved to Jobs with ${warnings}` : MOVED_TO_JOBS, { type: 'success' });
      leave();
      return;
    }
    setJob(checked);
    notify(`Still held: ${findingsLabel(checked.preflight ?? []) || 'see the findings'}`, { type: 'warning' });
  };
  return { job, leaving, fade, actions: <HeldJobActions job={job} onApproved={onApproved} onRechecked={onRechecked} /> };
}

interface HeldRowProps {
  job: PrintJob;
  showClient: boolean;
  onRemoved: (id: Id) => void;
}

function HeldJobRow({ job: initial, showClient, onRemoved }: HeldRowProps) {
  const { job, leaving, fade, actions } = useHeldJob(initial, onRemoved);
  return (
    <TableRow data-testid={`held-job-${job.id}`} aria-hidden={leaving || undefined} sx={{ ...fade, '& > td': { verticalAlign: 'top' }, '&:last-child td': { borderBottom: 0 } }}>
      <TableCell>
        <MarkedPage job={job} finding={markedFindingOf(job.preflight ?? [])} />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{job.orderName ?? ''}</TableCell>
      <TableCell sx={{ fontWeight: 600 }}>{job.productName}</TableCell>
      {showClient ? <TableCell>{job.clientName ?? ''}</TableCell> : null}
      <TableCell>
        <ShipBy shipBy={job.shipBy} due={job.due} />
      </TableCell>
      <TableCell sx={{ minWidth: 260 }}>
        <PreflightFindingList findings={job.preflight ?? []} />
      </TableCell>
      <TableCell>{actions}</TableCell>
    </TableRow>
  );
}

/** A phone's held job: a card like the Jobs queue's, the marked page beside what was found. */
function HeldJobCard({ job: initial, showClient, onRemoved }: HeldRowProps) {
  const { job, leaving, fade, actions } = useHeldJob(initial, onRemoved);
  const secondary = [job.orderName ? `Order ${job.orderName}` : null, showClient ? job.clientName : null, `QTY ${job.quantity}`].filter(Boolean).join(' · ');
  return (
    <Card variant="outlined" component="li" data-testid={`held-job-${job.id}`} aria-hidden={leaving || undefined} sx={{ ...fade, listStyle: 'none' }}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, '&:last-child': { pb: 2 } }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
          <MarkedPage job={job} finding={markedFindingOf(job.preflight ?? [])} width={88} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{job.productName}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {secondary}
            </Typography>
            <Typography variant="body2" component="div">
              <ShipBy shipBy={job.shipBy} due={job.due} label />
            </Typography>
          </Box>
        </Box>
        <PreflightFindingList findings={job.preflight ?? []} />
        {actions}
      </CardContent>
    </Card>
  );
}

const EMPTY_TEXT = 'No held jobs: every job passed preflight or was approved';

/** The Held tab: jobs preflight stopped, what it found and where, and Approve anyway / Re-check. */
export function HeldJobList({ list, showClient }: { list: PagedList<PrintJob>; showClient: boolean }) {
  const small = useSmallScreen();
  if (small) {
    return (
      <Box>
        <PagedListError list={list} />
        <Box component="ul" aria-label="Held jobs" sx={{ display: 'flex', flexDirection: 'column', gap: 1, p: 1, m: 0 }}>
          {list.items.map((job) => (
            <HeldJobCard key={job.id} job={job} showClient={showClient} onRemoved={list.remove} />
          ))}
        </Box>
        <PagedListFooter list={list} emptyText={EMPTY_TEXT} />
      </Box>
    );
  }
  return (
    <Box>
      <PagedListError list={list} />
      <TableContainer sx={{ contain: 'inline-size' }}>
        <Table size="small" aria-label="Held jobs" sx={{ '& .MuiTableCell-root': { px: 1 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}>
          <TableHead>
            <TableRow>
              {['Page', 'Order', 'Product', ...(showClient ? ['Client'] : []), 'Ship by', 'Findings', ''].map((label) => (
                <TableCell key={label || 'actions'} sx={{ fontWeight: 700 }}>
                  {label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((job) => (
              <HeldJobRow key={job.id} job={job} showClient={showClient} onRemoved={list.remove} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedListFooter list={list} emptyText={EMPTY_TEXT} />
    </Box>
  );
}

export default HeldJobList;
