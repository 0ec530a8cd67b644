import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import type { Id } from '../../../common/api/envelope';
import { errorMessage } from '../lib/format';
import type { AppDataProvider } from '../providers/dataProvider';
import { Timeline } from './Timeline';

/** The job's history, read when opened (JobHistoryButton loads this on the first open). */
export function JobHistoryDialog({ jobId, open, onClose }: { jobId: Id; open: boolean; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({ queryKey: ['job-history', jobId], queryFn: () => dataProvider.jobHistory(jobId), enabled: open, retry: false });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
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
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

export default JobHistoryDialog;
