import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Tooltip, Typography } from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import type { Id } from '../../../common/api/envelope';
import { errorMessage } from '../lib/format';
import type { AppDataProvider } from '../providers/dataProvider';
import { Timeline } from './Timeline';

/** History of one print job (Jobs and Print History rows), in a dialog read when opened. */
export function JobHistoryButton({ jobId }: { jobId: Id }) {
  const [open, setOpen] = useState(false);
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({ queryKey: ['job-history', jobId], queryFn: () => dataProvider.jobHistory(jobId), enabled: open, retry: false });
  return (
    <>
      {/* An icon: the row's actions stay narrow enough for the Jobs table to fit a laptop. */}
      <Tooltip title="History">
        <IconButton size="small" onClick={() => setOpen(true)} aria-label={`History of job ${jobId}`}>
          <HistoryIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm">
        <DialogTitle>History of job #{jobId}</DialogTitle>
        <DialogContent>
          {query.isPending && query.isFetching ? <CircularProgress size={20} aria-label="Loading" /> : null}
          {query.isError ? (
            <Typography color="error" role="alert">
              {errorMessage(query.error)}
            </Typography>
          ) : null}
          {query.data ? <Timeline entries={query.data} /> : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
