import { lazy, Suspense, useState } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import type { Id } from '../../../common/api/envelope';

// The dialog and its timeline load on the first open: the Jobs rows render without them.
const JobHistoryDialog = lazy(() => import('./JobHistoryDialog'));

/** History of one print job (Jobs and Print History rows), in a dialog read when opened. */
export function JobHistoryButton({ jobId }: { jobId: Id }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first open on, so it closes with its transition.
  const [opened, setOpened] = useState(false);
  return (
    <>
      {/* An icon: the row's actions stay narrow enough for the Jobs table to fit a laptop. */}
      <Tooltip title="History">
        <IconButton
          size="small"
          onClick={() => {
            setOpen(true);
            setOpened(true);
          }}
          aria-label={`History of job ${jobId}`}
        >
          <HistoryIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {opened ? (
        <Suspense fallback={null}>
          <JobHistoryDialog jobId={jobId} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
