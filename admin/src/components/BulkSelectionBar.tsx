// The bulk toolbar of a list with tick boxes (Jobs, Print History, List Orders), in react-admin's
// BulkActionsToolbar look: "N selected", "Select all N matching", the list's actions; then the
// progress of the action under way and why "select all" failed, if it did.
import type { ReactNode } from 'react';
import { alpha, Alert, Box, Button, IconButton, LinearProgress, Toolbar, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import type { JobSelection } from '../pages/print-jobs/useJobSelection';

/** An action under way: done of total (null: not counted, an indeterminate bar). */
export interface BulkProgress {
  label: string;
  done: number;
  total: number | null;
}

export function BulkSelectionBar({ selection, progress, children }: { selection: JobSelection; progress: BulkProgress | null; children: ReactNode }) {
  const count = selection.ids.length;
  const busy = progress !== null;
  const { total, loading, error, selectAll } = selection.matching;
  return (
    <>
      {count > 0 || busy ? (
        <Toolbar
          role="toolbar"
          aria-label="Bulk actions"
          variant="dense"
          sx={(theme) => ({
            gap: 1,
            flexWrap: 'wrap',
            color: theme.palette.primary.main,
            bgcolor: alpha(theme.palette.primary.light, 0.12),
            minHeight: { xs: 48, sm: 48 },
          })}
        >
          <Tooltip title="Unselect all">
            <span>
              <IconButton size="small" aria-label="Unselect all" color="primary" disabled={busy} onClick={selection.clear}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          <Typography variant="subtitle1" sx={{ mr: 1 }}>
            {count} selected
          </Typography>
          {total !== null && count < total ? (
            <Button size="small" disabled={busy || loading} onClick={selectAll}>
              {loading ? 'Selecting…' : `Select all ${total} matching`}
            </Button>
          ) : null}
          <Box sx={{ flex: 1 }} />
          {children}
        </Toolbar>
      ) : null}
      {progress ? (
        <Box role="status" aria-live="polite" sx={{ px: 2, py: 1 }}>
          <Typography variant="body2">
            {progress.label}… {progress.total !== null ? `${progress.done} of ${progress.total}` : ''}
          </Typography>
          <LinearProgress
            variant={progress.total ? 'determinate' : 'indeterminate'}
            value={progress.total ? (progress.done / progress.total) * 100 : undefined}
            aria-label={progress.label}
          />
        </Box>
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mx: 2, my: 1 }}>
          {error}
        </Alert>
      ) : null}
    </>
  );
}
