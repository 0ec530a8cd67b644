import { useEffect, useState, type FormEvent } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Chip, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import ScheduleIcon from '@mui/icons-material/Schedule';
import type { SyncJob } from '../../../../common/api/sync';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { MSG_CONFIG_SAVED } from '../../providers/sync';
import { STATUS_COLOURS, statusLabel } from './syncLabels';
import { syncKeys, useSyncConfigs, useSyncStatus } from './syncQueries';

/**
 * The scheduled job of one area: "Hour (24h format)" with Save (spec §2, §8 "Sync config saved"),
 * when it runs next and how its last run ended (sync-config and sync-status).
 */
export function JobSchedule({ site, job }: { site: string; job: SyncJob }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const configs = useSyncConfigs(site);
  const status = useSyncStatus(site);
  const config = configs.data?.list?.find((c) => c.job === job);
  const jobStatus = status.data?.jobs?.find((j) => j.job === job);

  const [hour, setHour] = useState('');
  const [dirty, setDirty] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  // Take the stored hour until the user edits it.
  useEffect(() => {
    if (config && !dirty) setHour(config.hour);
  }, [config, dirty]);

  const save = useMutation({
    mutationFn: (value: string) => dataProvider.saveSyncConfig(site, job, { hour: value }),
    onMutate: () => setSaveError(null),
    onSuccess: (answer) => {
      if (!answer) return; // signed out meanwhile (401)
      notify(MSG_CONFIG_SAVED, { type: 'success' });
      setDirty(false);
      setHour(answer.config?.hour ?? hour);
      void queryClient.invalidateQueries({ queryKey: syncKeys.configs(site) });
      void queryClient.invalidateQueries({ queryKey: syncKeys.status(site) });
    },
    onError: (error) => {
      setSaveError(errorMessage(error));
      notify(errorMessage(error), { type: 'error' });
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(hour.trim());
  };

  const loadError = configs.error ?? status.error;
  const timezone = status.data?.timezone;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Scheduled job">
      <Box component="form" onSubmit={onSubmit} noValidate sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
        <TextField
          label="Hour (24h format)"
          size="small"
          value={hour}
          onChange={(e) => {
            setHour(e.target.value);
            setDirty(true);
          }}
          disabled={configs.isPending}
          error={Boolean(saveError)}
          helperText={saveError ?? (timezone ? `Every day at this hour (${timezone})` : ' ')}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-label': 'Hour (24h format)' } }}
          sx={{ width: 200 }}
        />
        <Button type="submit" variant="contained" disabled={save.isPending || configs.isPending} startIcon={save.isPending ? <CircularProgress size={16} /> : undefined} sx={{ mt: 0.25 }}>
          Save
        </Button>
        <Stack spacing={0.5} sx={{ flex: '1 1 260px', minWidth: 0 }} data-testid={`job-status-${job}`}>
          {jobStatus ? (
            <>
              <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
                <ScheduleIcon fontSize="small" color="action" />
                {status.data?.scheduler === false || !jobStatus.nextRunAt ? (
                  <span>The scheduler is off on this server: no scheduled run.</span>
                ) : (
                  <span>
                    Next run: <strong>{formatDateTime(jobStatus.nextRunAt)}</strong>
                  </span>
                )}
              </Typography>
              <Typography variant="body2" component="div" sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75 }}>
                {jobStatus.running ? (
                  <>
                    <CircularProgress size={14} /> Running now (started {formatDateTime(jobStatus.lastRunAt)})
                  </>
                ) : jobStatus.lastRunAt ? (
                  <>
                    Last scheduled run: {formatDateTime(jobStatus.lastRunAt)}
                    <Chip size="small" label={statusLabel(jobStatus.lastStatus) || 'Unknown'} color={STATUS_COLOURS[jobStatus.lastStatus ?? ''] ?? 'default'} />
                  </>
                ) : (
                  <span>Last scheduled run: none yet</span>
                )}
              </Typography>
              {jobStatus.lastError && !jobStatus.running ? (
                <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
                  {jobStatus.lastError}
                </Typography>
              ) : null}
            </>
          ) : status.isPending ? (
            <Typography variant="body2" color="text.secondary">
              Loading the schedule...
            </Typography>
          ) : null}
        </Stack>
      </Box>
      {loadError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorMessage(loadError)}
        </Alert>
      ) : null}
    </Paper>
  );
}
