// What a bulk action (or marking a batch printed) did: one sentence, then each refused job and why.
import { Alert, Box } from '@mui/material';
import type { BulkRefusal } from '../../../../common/api/bulk';

export interface BulkOutcome {
  severity: 'success' | 'warning' | 'error';
  text: string;
  refused: BulkRefusal[];
}

export function BulkOutcomeAlert({ outcome, onClose }: { outcome: BulkOutcome; onClose: () => void }) {
  return (
    <Alert severity={outcome.severity} onClose={onClose} sx={{ mx: 2, my: 1 }} data-testid="bulk-summary">
      {outcome.text}
      {outcome.refused.length ? (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5, maxHeight: 160, overflowY: 'auto' }} aria-label="Refused jobs">
          {outcome.refused.map((r) => (
            <li key={r.id}>
              #{r.id}: {r.error}
            </li>
          ))}
        </Box>
      ) : null}
    </Alert>
  );
}
