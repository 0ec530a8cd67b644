import { useEffect, useState } from 'react';
import { useRecordContext } from 'react-admin';
import { MenuItem, TextField } from '@mui/material';
import { PRINT_OUTPUT_PROFILE, settingProblem } from '../../../../common/siteSettings';
import type { PrintProfile } from '../../../../common/api/printProfiles';
import { listPrintProfiles } from '../../providers/printProfiles';
import { useEnvSettings } from './PipelineSettings';
import { SettingsSection } from './SettingsSection';

/** Site editor: the printer's colour profile this site's print files carry (PRINT_OUTPUT_PROFILE, by the profile's number). */
export function PrintProfileSettings() {
  const record = useRecordContext<{ id?: number }>();
  const { valueOf, set } = useEnvSettings();
  const [profiles, setProfiles] = useState<PrintProfile[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    listPrintProfiles(undefined, abort.signal)
      // The site's own and those for every site: the ones it may name.
      .then((all) => setProfiles((Array.isArray(all) ? all : []).filter((p) => p.siteId === null || p.siteId === record?.id)))
      .catch((err: unknown) => {
        if (!abort.signal.aborted) setError(err instanceof Error ? err.message : String(err));
      });
    return () => abort.abort();
  }, [record?.id]);

  const value = valueOf(PRINT_OUTPUT_PROFILE).trim();
  // A number saved before its profile was listed here (or gone since) stays visible, not blank.
  const known = profiles === null || value === '' || profiles.some((p) => String(p.id) === value);
  const problem = settingProblem(PRINT_OUTPUT_PROFILE, value) ?? (known ? undefined : `Profile ${value} is not one this site may use: choose another.`);
  return (
    <SettingsSection
      title="Print files"
      description="The colour profile the printer prints with, carried by every print file made from now on (files made before are drawn again). Profiles are uploaded on Print profiles."
    >
      <TextField
        select
        label="Printer's colour profile"
        value={profiles === null ? '' : value}
        onChange={(e) => set(PRINT_OUTPUT_PROFILE, e.target.value)}
        error={Boolean(problem || error)}
        helperText={error ?? problem ?? `${PRINT_OUTPUT_PROFILE}: empty uses the instance's default (the bundled CMYK profile unless the server names one).`}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        fullWidth
      >
        <MenuItem value="">Default</MenuItem>
        {!known ? <MenuItem value={value}>{`Profile ${value}`}</MenuItem> : null}
        {(profiles ?? []).map((p) => (
          <MenuItem key={p.id} value={String(p.id)}>
            {`${p.name} (${p.id}${p.siteId === null ? ', every site' : ''})`}
          </MenuItem>
        ))}
      </TextField>
    </SettingsSection>
  );
}
