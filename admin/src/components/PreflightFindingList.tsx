import { Box, Typography } from '@mui/material';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { PreflightFinding, PreflightSeverity } from '../../../common/api/preflight';

const SEVERITY = {
  error: { Icon: ErrorOutlineIcon, color: 'error', label: 'Error' },
  warning: { Icon: WarningAmberIcon, color: 'warning', label: 'Warning' },
  info: { Icon: InfoOutlinedIcon, color: 'info', label: 'Note' },
} as const satisfies Record<PreflightSeverity, unknown>;

/** What preflight found on a job: each finding with its severity's icon, its sentence and its page. */
export function PreflightFindingList({ findings, dense = false }: { findings: readonly PreflightFinding[]; dense?: boolean }) {
  return (
    <Box component="ul" aria-label="Preflight findings" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: dense ? 0.5 : 0.75 }}>
      {findings.map((finding, i) => {
        const { Icon, color, label } = SEVERITY[finding.severity] ?? SEVERITY.info;
        return (
          <Box component="li" key={`${finding.code}-${finding.page}-${i}`} sx={{ display: 'flex', gap: 0.75, alignItems: 'flex-start' }}>
            <Icon fontSize="small" color={color} titleAccess={label} sx={{ mt: '1px', flex: 'none' }} />
            <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere' }}>
              {finding.message}
              {finding.page !== null ? (
                <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.75, whiteSpace: 'nowrap' }}>
                  page {finding.page}
                </Typography>
              ) : null}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
}
