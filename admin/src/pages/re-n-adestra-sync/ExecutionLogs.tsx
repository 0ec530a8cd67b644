import { Fragment, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  Chip,
  Collapse,
  FormControl,
  IconButton,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { RunKind, SyncRun } from '../../../../common/api/sync';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { RunDetail } from './RunDetail';
import { RUN_KIND_LABELS, STATUS_COLOURS, statusLabel, TRIGGER_LABELS } from './syncLabels';
import { syncKeys } from './syncQueries';

const COLUMNS = ['', 'When', 'Kind', 'What', 'Trigger', 'Status', 'Done', 'Failed', 'Opt-in', 'Opt-out', 'Errors'];

function RunRow({ run }: { run: SyncRun }) {
  const [open, setOpen] = useState(false);
  const d = run.data;
  const kind = (d?.kind ?? run.field2 ?? '') as RunKind;
  return (
    <Fragment>
      <TableRow hover data-testid={`run-${run.id}`} onClick={() => setOpen((o) => !o)} sx={{ cursor: 'pointer', '& > td': { borderBottom: open ? 'unset' : undefined } }}>
        <TableCell padding="checkbox">
          <IconButton size="small" aria-label={open ? 'Hide details' : 'Show details'} aria-expanded={open}>
            {open ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
          </IconButton>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(d?.startedAt ?? run.createdAt)}</TableCell>
        <TableCell>{RUN_KIND_LABELS[kind] ?? kind}</TableCell>
        <TableCell sx={{ overflowWrap: 'anywhere' }}>{run.field1}</TableCell>
        <TableCell>{TRIGGER_LABELS[d?.trigger ?? run.name ?? ''] ?? d?.trigger ?? run.name}</TableCell>
        <TableCell>
          <Chip size="small" label={statusLabel(d?.status ?? run.status)} color={STATUS_COLOURS[d?.status ?? run.status ?? ''] ?? 'default'} />
        </TableCell>
        <TableCell align="right">{d?.progress?.done ?? 0}</TableCell>
        <TableCell align="right">{d?.progress?.failed ?? 0}</TableCell>
        <TableCell align="right">{d?.optInList?.length ?? 0}</TableCell>
        <TableCell align="right">{d?.optOutList?.length ?? 0}</TableCell>
        <TableCell align="right" sx={{ color: d?.errors?.length ? 'error.main' : undefined }}>
          {d?.errors?.length ?? 0}
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={COLUMNS.length} sx={{ py: 0, ...(open ? {} : { borderBottom: 'none' }) }}>
          <Collapse in={open} timeout="auto" unmountOnExit>
            {d ? <RunDetail data={d} /> : null}
          </Collapse>
        </TableCell>
      </TableRow>
    </Fragment>
  );
}

/** Every run, scheduled or manual, newest first (GET raiser-edge-sync/list). */
export function ExecutionLogs({ site }: { site: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(20);
  const [kind, setKind] = useState<RunKind | 'all'>('all');
  const runs = useQuery({
    queryKey: [...syncKeys.runs(site), { page, pageSize, kind }],
    queryFn: () => dataProvider.getSyncRuns(site, { page: page + 1, pageSize, kind: kind === 'all' ? undefined : kind }),
    placeholderData: keepPreviousData,
    retry: false,
    // Follow runs going on.
    refetchInterval: (query) => (query.state.data?.list?.some((r) => r.data?.status === 'running') ? 3000 : false),
  });
  const list = runs.data?.list ?? [];

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 1 }}>
        <FormControl size="small" sx={{ width: { xs: '100%', sm: 240 } }}>
          <InputLabel id="run-kind-label">Kind</InputLabel>
          <Select
            labelId="run-kind-label"
            label="Kind"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as RunKind | 'all');
              setPage(0);
            }}
          >
            <MenuItem value="all">All runs</MenuItem>
            {(Object.keys(RUN_KIND_LABELS) as RunKind[]).map((k) => (
              <MenuItem key={k} value={k}>
                {RUN_KIND_LABELS[k]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Box sx={{ flexGrow: 1 }} />
        <Button startIcon={<RefreshIcon />} onClick={() => void runs.refetch()} disabled={runs.isFetching}>
          Refresh
        </Button>
      </Box>
      {runs.error ? (
        <Typography color="error" role="alert" sx={{ py: 1 }}>
          {errorMessage(runs.error)}
        </Typography>
      ) : null}
      <Box sx={{ height: 4 }}>{runs.isFetching ? <LinearProgress /> : null}</Box>
      <TableContainer>
        <Table size="small" aria-label="Execution logs">
          <TableHead>
            <TableRow>
              {COLUMNS.map((c, i) => (
                <TableCell key={`${c}-${i}`} align={i >= 6 ? 'right' : undefined} sx={{ whiteSpace: 'nowrap' }}>
                  {c}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {list.map((run) => (
              <RunRow key={String(run.id)} run={run} />
            ))}
            {!runs.isPending && !runs.error && list.length === 0 ? (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  No runs yet
                </TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={runs.data?.total ?? 0}
        page={page}
        onPageChange={(_, p) => setPage(p)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={[10, 20, 50, 100]}
        onRowsPerPageChange={(e) => {
          setPageSize(Number(e.target.value));
          setPage(0);
        }}
      />
    </Box>
  );
}
