import { useEffect, useState, type FormEvent } from 'react';
import { Confirm, useDataProvider } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Chip, CircularProgress, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import type { DayPreview, SyncRun } from '../../../../common/api/sync';
import { useActionKey } from '../../lib/actionKey';
import { DAY_PLACEHOLDER, errorMessage, formatDateTime, formatDay } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { MSG_DAY_REQUIRED } from '../../providers/sync';
import { DayInput } from '../../components/DayInput';
import { RunDetail } from './RunDetail';
import { STATUS_COLOURS, statusLabel } from './syncLabels';
import { syncKeys } from './syncQueries';

/** How often a running day sync is read again. */
export const POLL_MS = 1000;

export const MSG_DAY_FUTURE = 'The date is in the future: no contact can have changed on that day yet';

/** Today as YYYY-MM-DD on this computer (the server checks again in the sync's time zone). */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

function Count({ label, value }: { label: string; value: number | string }) {
  return (
    <Box sx={{ minWidth: 72 }}>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {label}
      </Typography>
      <Typography variant="h6" component="p" data-testid={`progress-${label.toLowerCase()}`}>
        {value}
      </Typography>
    </Box>
  );
}

export function RunProgress({ run }: { run: SyncRun }) {
  const p = run.data.progress ?? { pages: 0, seen: 0, total: null, matched: 0, done: 0, failed: 0 };
  const running = run.data.status === 'running';
  const value = p.total ? Math.min(100, (p.seen / p.total) * 100) : undefined;
  return (
    <Stack spacing={1}>
      {running ? <LinearProgress variant={value === undefined ? 'indeterminate' : 'determinate'} value={value} aria-label="Sync progress" /> : null}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3 }}>
        <Count label="Pages" value={p.pages} />
        <Count label="Seen" value={p.total ? `${p.seen} / ${p.total}` : p.seen} />
        <Count label="Matched" value={p.matched} />
        <Count label="Done" value={p.done} />
        <Count label="Failed" value={p.failed} />
      </Box>
    </Stack>
  );
}

const contacts = (n: number) => `${n} contact${n === 1 ? '' : 's'}`;

/** The sync's question: what it does, with the count of contacts it changes when the server knows it. */
export function daySyncQuestion(day: string, preview: DayPreview | undefined, counting: boolean): string {
  const what = `Every constituent modified on ${formatDay(day)} will be written to Adestra. This changes contacts and cannot be undone.`;
  if (counting) return `${what} Counting the contacts…`;
  if (preview?.contacts == null) return what;
  if (preview.basis === 'webhooks') return `Raiser's Edge reported changes to ${contacts(preview.contacts)} that day. ${what}`;
  return `The last sync of this day changed ${contacts(preview.contacts)}. ${what}`;
}

/** Sync by day: every constituent modified on that day; the run is followed until it ends. */
export function DaySync({ site }: { site: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [day, setDay] = useState('');
  // The typed text is not a date (the field says why); `day` keeps the last one that was.
  const [dayUnreadable, setDayUnreadable] = useState(false);
  const [validation, setValidation] = useState<string | null>(null);
  const [run, setRun] = useState<SyncRun | null>(null);
  // The day waiting for the operator's yes: the sync changes contacts and cannot be undone.
  const [asking, setAsking] = useState<string | null>(null);
  const [alreadyRunning, setAlreadyRunning] = useState(false);
  // Asked while the question is open; without an answer the question goes without a count.
  const preview = useQuery({
    queryKey: syncKeys.dayPreview(site, asking ?? ''),
    queryFn: () => dataProvider.getDayPreview(site, asking ?? ''),
    enabled: asking !== null,
    retry: false,
    staleTime: 0,
  });
  const [pollError, setPollError] = useState<string | null>(null);
  // Each answer (or failure) of a poll schedules the next one.
  const [tick, setTick] = useState(0);

  const actionKey = useActionKey();
  const start = useMutation({
    mutationFn: ({ value, key }: { value: string; key: string }) => dataProvider.syncDay(site, value, key),
    onSettled: actionKey.end,
    onMutate: () => {
      setRun(null);
      setPollError(null);
    },
    onSuccess: (answer) => {
      if (!answer) return;
      setRun(answer.run);
      setAlreadyRunning(answer.alreadyRunning);
      void queryClient.invalidateQueries({ queryKey: syncKeys.runs(site) });
    },
  });

  // Poll the run record about every second while it runs.
  const runId = run?.id;
  const running = run?.data?.status === 'running';
  useEffect(() => {
    if (runId === undefined || !running) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      dataProvider.getSyncRun(site, runId).then(
        (next) => {
          if (cancelled || !next) return;
          setPollError(null);
          setRun(next);
          setTick((t) => t + 1);
          if (next.data.status !== 'running') {
            void queryClient.invalidateQueries({ queryKey: syncKeys.runs(site) });
            void queryClient.invalidateQueries({ queryKey: syncKeys.status(site) });
          }
        },
        (error: unknown) => {
          if (cancelled) return;
          // Shown, and tried again on the next tick (a blip must not lose the run).
          setPollError(errorMessage(error));
          setTick((t) => t + 1);
        },
      );
    }, POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [dataProvider, queryClient, site, runId, running, tick]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = day;
    if (dayUnreadable) return setValidation(`Type the date as ${DAY_PLACEHOLDER}`);
    if (!value) return setValidation(MSG_DAY_REQUIRED);
    if (value > localToday()) return setValidation(MSG_DAY_FUTURE);
    setValidation(null);
    setAsking(value);
  };

  return (
    <Box>
      <Confirm
        isOpen={asking !== null}
        title="Sync this day?"
        content={daySyncQuestion(asking ?? '', preview.data, preview.isFetching)}
        confirm="Sync"
        confirmColor="warning"
        onConfirm={() => {
          if (asking) start.mutate({ value: asking, key: actionKey.begin() });
          setAsking(null);
        }}
        onClose={() => setAsking(null)}
      />
      <Box component="form" onSubmit={onSubmit} noValidate sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
        <DayInput
          label="Day"
          value={day}
          onChange={(next) => {
            setDayUnreadable(next === null);
            if (next !== null) setDay(next);
            if (validation) setValidation(null);
          }}
          error={validation}
          helperText="Constituents modified that day"
          sx={{ width: 280 }}
        />
        <Button type="submit" variant="contained" disabled={start.isPending || running} startIcon={start.isPending || running ? <CircularProgress size={16} /> : <SyncIcon />} sx={{ mt: 0.25 }}>
          Sync
        </Button>
      </Box>
      {!validation && start.error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(start.error)}
        </Alert>
      ) : null}
      {run ? (
        <Paper variant="outlined" sx={{ mt: 2, p: 2 }} data-testid="day-run">
          <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
            <Typography variant="subtitle1" component="h3">
              Sync of {formatDay(run.field1 ?? '')}
            </Typography>
            <Chip size="small" label={statusLabel(run.data.status)} color={STATUS_COLOURS[run.data.status] ?? 'default'} />
            <Typography variant="body2" color="text.secondary">
              started {formatDateTime(run.data.startedAt)}
              {run.data.finishedAt ? `, finished ${formatDateTime(run.data.finishedAt)}` : ''}
            </Typography>
          </Box>
          {alreadyRunning ? (
            <Alert severity="info" sx={{ mb: 1 }}>
              A sync of this day was already running: following that run.
            </Alert>
          ) : null}
          {pollError ? (
            <Alert severity="warning" sx={{ mb: 1 }}>
              Could not read the run&apos;s progress: {pollError}. Trying again…
            </Alert>
          ) : null}
          <RunProgress run={run} />
          {running ? null : <RunDetail data={run.data} />}
        </Paper>
      ) : null}
    </Box>
  );
}
