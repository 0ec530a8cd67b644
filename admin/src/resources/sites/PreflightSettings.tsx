import { Box, TextField, Typography } from '@mui/material';
import { PREFLIGHT_SETTING_KEYS, ppiSettingsProblem } from '../../../../common/api/preflight';
import { DEFAULT_PPI_THRESHOLDS } from '../../../../common/design-doc/resolution';
import { useEnvSettings } from './PipelineSettings';
import { SettingsSection } from './SettingsSection';

const FIELDS = [
  { key: PREFLIGHT_SETTING_KEYS.warning, label: 'Warn below (ppi)', helperText: `A photo printed at fewer pixels per inch is flagged; default ${DEFAULT_PPI_THRESHOLDS.warning}` },
  { key: PREFLIGHT_SETTING_KEYS.error, label: 'Hold below (ppi)', helperText: `The job waits in Jobs → Held for a person; default ${DEFAULT_PPI_THRESHOLDS.error}` },
] as const;

/** A section's settings problem, the sentence the server refuses a save with, shown as typed (nothing when there is none). */
export function SettingsProblem({ problem }: { problem: string | undefined }) {
  return problem ? (
    <Typography color="error" role="alert" variant="body2" sx={{ mt: 1 }}>
      {problem}
    </Typography>
  ) : null;
}

/** Site editor: the resolution rule of this site's preflight (and of its editor's live warning). */
export function PreflightSettings() {
  const { valueOf, set } = useEnvSettings();
  // The server refuses a save with this same sentence: shown as typed, before Save.
  const problem = ppiSettingsProblem((key) => valueOf(key) || undefined);
  return (
    <SettingsSection title="Print checks" description="The resolution every photo needs at the size it prints. Empty: the default." problem={<SettingsProblem problem={problem} />}>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {FIELDS.map(({ key, label, helperText }) => (
          <TextField
            key={key}
            label={label}
            value={valueOf(key)}
            onChange={(e) => set(key, e.target.value.trim())}
            placeholder={String(key === PREFLIGHT_SETTING_KEYS.warning ? DEFAULT_PPI_THRESHOLDS.warning : DEFAULT_PPI_THRESHOLDS.error)}
            slotProps={{ htmlInput: { inputMode: 'numeric' }, inputLabel: { shrink: true } }}
            helperText={helperText}
            sx={{ flex: '1 1 240px' }}
          />
        ))}
      </Box>
    </SettingsSection>
  );
}
