import { useState, type FormEvent } from 'react';
import { useDataProvider } from 'react-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Paper, TextField, Typography } from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import type { SyncOneAnswer } from '../../../../common/api/sync';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { MSG_CONSTITUENT_REQUIRED } from '../../providers/sync';
import { RunErrors } from './RunDetail';
import { syncKeys } from './syncQueries';
import { SyncResultCard } from './SyncResults';

/** Single check: sync one constituent by its RE id and show what was done. */
export function SingleSync({ site }: { site: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [constituentId, setConstituentId] = useState('');
  const [validation, setValidation] = useState<string | null>(null);
  const [answer, setAnswer] = useState<SyncOneAnswer | null>(null);

  const actionKey = useActionKey();
  const sync = useMutation({
    mutationFn: ({ id, key }: { id: string; key: string }) => dataProvider.syncOneConstituent(site, id, key),
    onMutate: () => setAnswer(null),
    onSuccess: (value) => {
      if (value) setAnswer(value);
    },
    onSettled: () => {
      actionKey.end();
      void queryClient.invalidateQueries({ queryKey: syncKeys.runs(site) });
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const id = constituentId.trim();
    if (!id) {
      setValidation(MSG_CONSTITUENT_REQUIRED);
      return;
    }
    setValidation(null);
    sync.mutate({ id, key: actionKey.begin() });
  };

  return (
    <Box>
      <Box component="form" onSubmit={onSubmit} noValidate sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
        <TextField
          label="RE constituent ID"
          size="small"
          value={constituentId}
          onChange={(e) => {
            setConstituentId(e.target.value);
            if (validation) setValidation(null);
          }}
          error={Boolean(validation)}
          helperText={validation ?? 'The constituent’s id in Raiser’s Edge NXT'}
          sx={{ width: 280 }}
          autoComplete="off"
        />
        <Button type="submit" variant="contained" disabled={sync.isPending} startIcon={sync.isPending ? <CircularProgress size={16} /> : <SyncIcon />} sx={{ mt: 0.25 }}>
          Sync
        </Button>
      </Box>
      {validation ? null : sync.error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(sync.error)}
        </Alert>
      ) : null}
      {answer ? (
        <Paper variant="outlined" sx={{ mt: 2, p: 2 }}>
          <Typography variant="subtitle1" component="h3" gutterBottom>
            Result {answer.run?.data?.finishedAt ? <Typography component="span" variant="body2" color="text.secondary">— {formatDateTime(answer.run.data.finishedAt)}</Typography> : null}
          </Typography>
          <SyncResultCard result={answer.result} />
          {answer.run?.data?.errors?.length ? (
            <Box sx={{ mt: 2 }}>
              <RunErrors errors={answer.run.data.errors} />
            </Box>
          ) : null}
        </Paper>
      ) : null}
    </Box>
  );
}
