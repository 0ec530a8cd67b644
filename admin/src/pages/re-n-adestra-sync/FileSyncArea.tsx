import { useState } from 'react';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import RefreshIcon from '@mui/icons-material/Refresh';
import ReplayIcon from '@mui/icons-material/Replay';
import type { DropFile, FileKind, FileStatus, ProcessedFile } from '../../../../common/api/sync';
import { saveBlob } from '../../lib/download';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { JobSchedule } from './JobSchedule';
import { summaryText } from './RunDetail';
import { EXPORT_TITLES, STATUS_COLOURS, statusLabel } from './syncLabels';
import { syncKeys, useSyncConfigs } from './syncQueries';

interface FileRow {
  name: string;
  status: FileStatus;
  doneAt: string | null;
  summary: ProcessedFile['result'];
  rowsDone: number;
  rowsTotal: number | null;
  error: string | null;
  unmatched: string[];
  /** In the drop folder now (else only its processed-file record is left). */
  inFolder: boolean;
}

/**
 * The rows: the drop folder's files, each with its processed-file record when there is one (the
 * record decides its state: the list of processed files is what a run answers), newest first.
 */
function rowsOf(files: readonly DropFile[], processed: readonly ProcessedFile[]): FileRow[] {
  const records = new Map(processed.map((p) => [p.name, p]));
  const names = [...new Set([...files.map((f) => f.name), ...processed.map((p) => p.name)])].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const byName = new Map(files.map((f) => [f.name, f]));
  return names.map((name) => {
    const file = byName.get(name);
    const rec = records.get(name);
    return {
      name,
      status: rec?.status ?? file?.status ?? 'unprocessed',
      doneAt: rec ? rec.doneAt : (file?.doneAt ?? null),
      summary: rec ? rec.result : (file?.result ?? null),
      rowsDone: rec?.rowsDone ?? file?.rowsDone ?? 0,
      rowsTotal: rec?.rowsTotal ?? file?.rowsTotal ?? null,
      error: rec ? rec.error : (file?.error ?? null),
      unmatched: rec?.unmatched ?? [],
      inFolder: Boolean(file),
    };
  });
}

function Unmatched({ emails }: { emails: readonly string[] }) {
  if (!emails.length) return null;
  const shown = emails.slice(0, 5);
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
      Not in the CRM: {shown.join(', ')}
      {emails.length > shown.length ? ` and ${emails.length - shown.length} more` : ''}
    </Typography>
  );
}

function StatusCell({ row, busy, runError, onRun, onReprocess }: { row: FileRow; busy: boolean; runError?: string; onRun: () => void; onReprocess: () => void }) {
  const done = row.status === 'success';
  let action = null;
  if (busy) {
    action = (
      <Button size="small" variant="contained" disabled startIcon={<CircularProgress size={14} />}>
        Running
      </Button>
    );
  } else if (!row.inFolder || row.status === 'processing') {
    action = null;
  } else if (done) {
    action = (
      <Tooltip describeChild title="Process this file again (rows already applied are not applied twice)">
        <Button size="small" variant="outlined" startIcon={<ReplayIcon />} onClick={onReprocess}>
          Re-process
        </Button>
      </Tooltip>
    );
  } else if (row.status === 'failed') {
    action = (
      <Tooltip describeChild title="Run again: it resumes at the first row not done">
        <Button size="small" variant="contained" color="warning" startIcon={<ReplayIcon />} onClick={onRun}>
          Re-run
        </Button>
      </Tooltip>
    );
  } else {
    action = (
      <Button size="small" variant="contained" startIcon={<PlayArrowIcon />} onClick={onRun}>
        Run
      </Button>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
        {done && row.doneAt ? (
          <>
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              Done at {formatDateTime(row.doneAt)}
            </Typography>
            {row.summary ? (
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                {summaryText(row.summary)}
              </Typography>
            ) : null}
            <Unmatched emails={row.unmatched} />
          </>
        ) : (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Chip size="small" label={statusLabel(row.status)} color={STATUS_COLOURS[row.status] ?? 'default'} />
            {row.status === 'processing' || (row.status === 'failed' && row.rowsTotal) ? (
              <Typography variant="caption" color="text.secondary">
                {row.rowsDone} / {row.rowsTotal ?? '?'} rows done
              </Typography>
            ) : null}
          </Box>
        )}
        {row.status === 'failed' && row.error ? (
          <Typography variant="body2" color="error" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
            {row.error}
          </Typography>
        ) : null}
        {runError ? (
          <Typography variant="body2" color="error" role="alert" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
            {runError}
          </Typography>
        ) : null}
        {!row.inFolder ? (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            No longer in the drop folder
          </Typography>
        ) : null}
      </Box>
      {action}
    </Box>
  );
}

/** Unsubscribe sync, Export 80 or Export 92: the job's hour, the files and their processing. */
export function FileSyncArea({ site, kind }: { site: string; kind: FileKind }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const configs = useSyncConfigs(site);
  const files = useQuery({ queryKey: syncKeys.files(site, kind), queryFn: () => dataProvider.getSyncFiles(site, kind), retry: false });
  const processed = useQuery({ queryKey: syncKeys.processed(site, kind), queryFn: () => dataProvider.getProcessedSyncFiles(site, kind), retry: false });
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [runErrors, setRunErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<string | null>(null);

  const rows = rowsOf(files.data?.list ?? [], processed.data?.list ?? []);
  const exportUrl = kind === 'unsubscribe' ? undefined : (files.data?.exportUrl ?? configs.data?.links?.[kind]);

  async function run(name: string, force = false) {
    setBusy((b) => new Set(b).add(name));
    setRunErrors(({ [name]: _dropped, ...rest }) => rest);
    try {
      const answer = await dataProvider.processSyncFile(site, kind, name, force);
      if (!answer) return; // signed out meanwhile (401)
      // The answer's list of processed files replaces the current one (spec §2).
      const list = answer.listAlreadyProcess ?? [];
      queryClient.setQueryData(syncKeys.processed(site, kind), { list, hasNext: false, total: list.length });
      if (answer.error) {
        setRunErrors((e) => ({ ...e, [name]: answer.error ?? 'failed' }));
        notify(`${name}: ${answer.error}`, { type: 'error', autoHideDuration: 10_000 });
      } else if (answer.alreadyProcessed) {
        notify(`${name} was already processed`, { type: 'info' });
      } else {
        notify(`${name} processed: ${summaryText(answer.result)}`, { type: 'success' });
      }
    } catch (error) {
      setRunErrors((e) => ({ ...e, [name]: errorMessage(error) }));
      notify(errorMessage(error), { type: 'error', autoHideDuration: 10_000 });
    } finally {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(name);
        return next;
      });
      void queryClient.invalidateQueries({ queryKey: syncKeys.status(site) });
      void queryClient.invalidateQueries({ queryKey: syncKeys.runs(site) });
    }
  }

  async function download(name: string) {
    try {
      const blob = await dataProvider.downloadSyncFile(site, name);
      if (blob) saveBlob(blob, name);
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    }
  }

  const refresh = () => {
    void files.refetch();
    void processed.refetch();
  };
  const loadError = files.error ?? processed.error;
  const loading = files.isPending || processed.isPending;

  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 }}>
        <Typography variant="h6" component="h2">
          {kind === 'unsubscribe' ? 'Adestra Unsubscribe Sync' : EXPORT_TITLES[kind]}
        </Typography>
        {exportUrl ? (
          <Link href={exportUrl} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            {kind === 'export80' ? 'Export 80' : 'Export 92'} in Adestra <OpenInNewIcon sx={{ fontSize: 16 }} />
          </Link>
        ) : null}
      </Box>
      <JobSchedule site={site} job={kind} />
      <Paper variant="outlined">
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, pt: 1.5, pb: 0.5 }}>
          <Typography variant="subtitle1" component="h3" sx={{ flexGrow: 1 }}>
            {kind === 'unsubscribe' ? 'Unsubscribe files' : 'Exported files'}
          </Typography>
          <Button size="small" startIcon={<RefreshIcon />} onClick={refresh} disabled={files.isFetching || processed.isFetching}>
            Refresh
          </Button>
        </Box>
        {loadError ? (
          <Typography color="error" role="alert" sx={{ px: 2, py: 1 }}>
            {errorMessage(loadError)}
          </Typography>
        ) : null}
        {loading ? (
          <Box role="status" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1, py: 4 }}>
            <CircularProgress size={20} />
            <Typography color="text.secondary">Loading...</Typography>
          </Box>
        ) : rows.length ? (
          <TableContainer>
            <Table size="small" aria-label={kind === 'unsubscribe' ? 'Unsubscribe files' : 'Exported files'}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: '38%' }}>File name</TableCell>
                  <TableCell>Status</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.name} data-testid={`file-${row.name}`}>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                        <span>{row.name}</span>
                        {row.inFolder ? (
                          <Tooltip describeChild title="Download the file">
                            <IconButton size="small" aria-label={`Download ${row.name}`} onClick={() => void download(row.name)}>
                              <DownloadIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        ) : null}
                      </Box>
                    </TableCell>
                    <TableCell>
                      <StatusCell
                        row={row}
                        busy={busy.has(row.name)}
                        runError={runErrors[row.name]}
                        onRun={() => void run(row.name)}
                        onReprocess={() => setConfirming(row.name)}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ) : !loadError ? (
          <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
            No files in the drop folder yet
          </Typography>
        ) : null}
      </Paper>
      <Confirm
        isOpen={confirming !== null}
        title="Process this file again?"
        content={`${confirming ?? ''} was processed already. Its rows are checked against the CRM again; a consent already there is not added twice.`}
        confirm="Re-process"
        onConfirm={() => {
          const name = confirming;
          setConfirming(null);
          if (name) void run(name, true);
        }}
        onClose={() => setConfirming(null)}
      />
      {files.data && !exportUrl && kind !== 'unsubscribe' ? <Alert severity="info">No link to the export page is configured.</Alert> : null}
    </Stack>
  );
}
