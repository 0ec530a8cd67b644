import { useState } from 'react';
import { Title, useDataProvider } from 'react-admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Box, Button, Card, CardContent, LinearProgress, MenuItem, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { HISTORY_SUBJECT_KINDS, historyActionLabel, historyActorLabel, type HistorySubjectKind, type HistoryTrailEntry } from '../../../../common/api/history';
import { DayInput } from '../../components/DayInput';
import { RequireAccess } from '../../components/RequireAccess';
import { SitePicker } from '../../components/SitePicker';
import { errorMessage, formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';

const KIND_LABELS: Record<HistorySubjectKind, string> = { job: 'Print jobs', order: 'Orders', batch: 'Batches', send: 'HP sends', sync: 'Sync runs' };
const SUBJECT_LABELS: Record<HistorySubjectKind, string> = { job: 'Job', order: 'Order', batch: 'Batch', send: 'Send', sync: 'Sync run' };

interface Filters {
  kind: HistorySubjectKind | '';
  siteId: string;
  actor: string;
  from: string;
  to: string;
}

const subjectOf = (e: HistoryTrailEntry) => `${SUBJECT_LABELS[e.kind]} ${e.kind === 'order' ? e.subjectId : `#${e.subjectId}`}${e.orderRef && e.kind !== 'order' ? ` (order ${e.orderRef})` : ''}`;

function HistoryView() {
  usePageTitle('History');
  const dataProvider = useDataProvider<AppDataProvider>();
  const [filters, setFilters] = useState<Filters>({ kind: '', siteId: '', actor: '', from: '', to: '' });
  const [page, setPage] = useState(1);
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const query = useQuery({
    queryKey: ['history', filters, page],
    queryFn: () => dataProvider.getHistory({ page, ...filters }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const rows = query.data?.list ?? [];
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="History" />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography variant="h6" component="h1">
          History
        </Typography>
        <Typography color="text.secondary">Every change of a job, order, batch, HP send or sync run: who made it (or which rule), when, from what to what, and why. Newest first.</Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <TextField select size="small" label="What" value={filters.kind} onChange={(e) => set({ kind: e.target.value as Filters['kind'] })} sx={{ width: 180 }} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}>
            <MenuItem value="">Everything</MenuItem>
            {HISTORY_SUBJECT_KINDS.map((k) => (
              <MenuItem key={k} value={k}>
                {KIND_LABELS[k]}
              </MenuItem>
            ))}
          </TextField>
          <SitePicker value={filters.siteId} onChange={(siteId) => set({ siteId })} allLabel="All sites" width={220} />
          <TextField size="small" label="Who" placeholder="A name, or a rule" value={filters.actor} onChange={(e) => set({ actor: e.target.value })} sx={{ width: 220 }} />
          <DayInput label="From" value={filters.from} onChange={(day) => day !== null && set({ from: day })} sx={{ width: 160 }} />
          <DayInput label="To" value={filters.to} onChange={(day) => day !== null && set({ to: day })} sx={{ width: 160 }} />
        </Box>
        {query.isFetching ? <LinearProgress aria-label="Loading" /> : null}
        {query.isError ? (
          <Typography color="error" role="alert">
            {errorMessage(query.error)}
          </Typography>
        ) : null}
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="History">
            <TableHead>
              <TableRow>
                <TableCell>When</TableCell>
                <TableCell>What</TableCell>
                <TableCell>Change</TableCell>
                <TableCell>From → to</TableCell>
                <TableCell>Who</TableCell>
                <TableCell>Why</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((e) => (
                <TableRow key={e.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</TableCell>
                  <TableCell>{subjectOf(e)}</TableCell>
                  <TableCell>{historyActionLabel(e.action)}</TableCell>
                  <TableCell>{e.from || e.to ? `${e.from ?? '—'} → ${e.to ?? '—'}` : ''}</TableCell>
                  <TableCell>{historyActorLabel(e.actor)}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 360 }}>{e.reason ?? ''}</TableCell>
                </TableRow>
              ))}
              {query.data && !rows.length ? (
                <TableRow>
                  <TableCell colSpan={6}>Nothing recorded matches these filters.</TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Newer
          </Button>
          <Typography variant="body2" color="text.secondary">
            Page {page}
            {query.data ? ` · ${query.data.total} entries` : ''}
          </Typography>
          <Button disabled={!query.data?.hasNext} onClick={() => setPage((p) => p + 1)}>
            Older
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

/** /history (admins): the whole trail with filters. */
export function HistoryPage() {
  return (
    <RequireAccess resource="history" action="list">
      <HistoryView />
    </RequireAccess>
  );
}

export default HistoryPage;
