import { useId, useState } from 'react';
import { Box, Chip, Popover, Typography } from '@mui/material';
import type { PreflightFinding, PreflightState } from '../../../common/api/preflight';
import { PreflightFindingList } from './PreflightFindingList';

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "2 warnings", "1 error, 1 warning": what a chip says of a job's findings (info notes are not counted). */
export function findingsLabel(findings: readonly PreflightFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  return [errors ? count(errors, 'error') : '', warnings ? count(warnings, 'warning') : ''].filter(Boolean).join(', ');
}

/**
 * A job's preflight at a glance (the Jobs row, an order's line): held in red, warnings (or an error
 * someone approved) in amber; a click lists the findings with their pages. Nothing when there is
 * nothing to say, or when the server sent no preflight (an older server).
 */
export function PreflightChip({ held, preflight }: Partial<Pick<PreflightState, 'held' | 'preflight'>>) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const findings = (Array.isArray(preflight) ? preflight : []).filter((f) => f.severity !== 'info');
  if (!held && findings.length === 0) return null;
  const label = held ? `Held${findings.length ? `: ${findingsLabel(findings)}` : ''}` : findingsLabel(findings);
  return (
    <>
      <Chip
        size="small"
        // Yellow text on white is unreadable: a warning is a filled chip (dark text on yellow).
        variant={held ? 'outlined' : 'filled'}
        color={held ? 'error' : 'warning'}
        label={label}
        aria-label={held ? `Held by preflight: ${findingsLabel(findings) || 'see why'}` : `Preflight: ${label}`}
        aria-haspopup="dialog"
        aria-controls={anchor ? popoverId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ ml: 0.75, height: 20, fontSize: 11 }}
      />
      <Popover
        id={popoverId}
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': 'Preflight findings', sx: { p: 1.5, maxWidth: 420 } } as object }}
      >
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Typography variant="subtitle2">{held ? 'Held by preflight: not printed or sent until approved or fixed' : 'Prints, but check these first'}</Typography>
          <PreflightFindingList findings={findings} dense />
        </Box>
      </Popover>
    </>
  );
}
