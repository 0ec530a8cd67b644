import { Typography } from '@mui/material';
import type { PreflightApproval } from '../../../common/api/preflight';
import { formatDateTime } from '../lib/format';

/** Under a job an operator let through despite its errors: who did, and (on hover) when. */
export function PreflightApprovalLine({ approval }: { approval: PreflightApproval | null | undefined }) {
  if (!approval) return null;
  return (
    <Typography variant="caption" color="text.secondary" title={`Approved ${formatDateTime(approval.at)}`} sx={{ display: 'block' }}>
      Approved anyway by {approval.byName}
    </Typography>
  );
}
