import { useFormContext, useFormState, useWatch, get, type FieldError } from 'react-hook-form';
import { ValidationError, type Validator } from 'react-admin';
import { Box, FormControlLabel, FormHelperText, Switch, TextField, Typography } from '@mui/material';
import type { EnvVariable } from '../../../../common/api/sites';
import { PIPELINE_SETTINGS, type PipelineStep } from '../../../../common/api/pipeline';
import { settingProblem } from '../../../../common/siteSettings';
import { SettingsSection } from './SettingsSection';

// The section is a second view of settings.env (the generic list stays the only store of the values):
// both read and write the same array, so they never disagree.
const ENV = 'settings.env';

const SWITCHES: ReadonlyArray<[PipelineStep, string]> = [
  ['addToRaisersEdge', "Add buyers to Raiser's Edge"],
  ['addToAdestra', 'Add buyers to Adestra'],
  ['sendEcard', 'Send e-cards'],
];

const FIELDS: ReadonlyArray<{ key: string; label: string; helperText?: string }> = [
  { key: 'ADESTRA_BUYERS_LIST_ID', label: 'Adestra list for buyers (only those who consented)' },
  { key: 'RE_CONSENT_SOURCE', label: "Raiser's Edge consent source", helperText: "One of the CRM's consent sources (listed under Raiser's Edge connection)" },
  { key: 'RE_CONSENT_CATEGORY', label: "Raiser's Edge consent category", helperText: "One of the CRM's consent categories (listed under Raiser's Edge connection)" },
  { key: 'ECARD_FROM', label: 'E-card sender address' },
  { key: 'SMTP_URL', label: 'Mail server', helperText: 'smtp://host:587 or smtps://user:password@host:465; the password is kept secret' },
];

/** The settings this section edits (the Connections section leaves them to it). */
export const PIPELINE_FIELD_KEYS: readonly string[] = FIELDS.map((f) => f.key);

/** The generic list's value input: checks a known setting by the key beside it with the registry's rule, the server's (so a bad value blocks Save wherever it was typed). */
export const validateEnvValue: Validator = (value, allValues, props) => {
  const source = (props as { finalSource?: string } | undefined)?.finalSource;
  const key = source ? get(allValues, source.replace(/\.value$/, '.key')) : undefined;
  return typeof key === 'string' ? settingProblem(key.trim(), typeof value === 'string' ? value : '') : undefined;
};

const messageOf = (error: unknown): string | undefined => {
  const e = error as (FieldError & { root?: FieldError }) | undefined;
  return (typeof e?.message === 'string' && e.message) || (typeof e?.root?.message === 'string' && e.root.message) || undefined;
};

/**
 * A section's view of settings.env: read a setting by key, set it ('' removes it: an empty setting
 * is no setting), and the form's errors on the list.
 */
export function useEnvSettings() {
  const { setValue } = useFormContext();
  const env = (useWatch({ name: ENV }) as EnvVariable[] | undefined) ?? [];
  const { errors, isSubmitted } = useFormState({ name: ENV });
  const indexOf = (key: string) => env.findIndex((v) => v?.key?.trim() === key);
  const valueOf = (key: string) => env[indexOf(key)]?.value ?? '';
  const options = { shouldDirty: true, shouldTouch: true, shouldValidate: isSubmitted };
  const set = (key: string, value: string) => {
    const i = indexOf(key);
    if (!value) setValue(ENV, env.filter((v) => v?.key?.trim() !== key), options);
    else if (i >= 0) setValue(`${ENV}.${i}.value`, value, options);
    else setValue(ENV, [...env, { key, value }], options);
  };
  return { indexOf, valueOf, set, errors };
}

/** Site editor: the charity pipeline's settings (which steps run by themselves, the lists, the mail server). */
export function PipelineSettings() {
  const { indexOf, valueOf, set, errors } = useEnvSettings();

  // The server checks the consent names against the CRM and answers on settings.env as a whole.
  const envError = messageOf(get(errors, ENV));
  return (
    <SettingsSection
      title="Charity pipeline"
      description="Each paid order's buyer into Raiser's Edge and Adestra, and its e-cards e-mailed to their recipients."
      problem={
        envError ? (
          <Typography color="error" role="alert" variant="body2" sx={{ mt: 1 }}>
            <ValidationError error={envError} />
          </Typography>
        ) : null
      }
    >
      <Box sx={{ display: 'flex', flexDirection: 'column' }}>
        {SWITCHES.map(([step, label]) => {
          const key = PIPELINE_SETTINGS[step];
          return (
            <Box key={key}>
              <FormControlLabel
                label={label}
                control={<Switch checked={valueOf(key).trim() === '1'} onChange={(e) => set(key, e.target.checked ? '1' : '')} />}
              />
              <FormHelperText sx={{ mt: -0.5, ml: 6 }}>run automatically on each paid order</FormHelperText>
            </Box>
          );
        })}
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column' }}>
        {FIELDS.map(({ key, label, helperText }) => {
          const i = indexOf(key);
          const error = i >= 0 ? messageOf(get(errors, `${ENV}.${i}.value`)) : undefined;
          return (
            <TextField
              key={key}
              label={label}
              value={valueOf(key)}
              onChange={(e) => set(key, e.target.value)}
              error={Boolean(error)}
              // react-admin's validators answer an encoded message: ValidationError reads it.
              helperText={error ? <ValidationError error={error} /> : (helperText ?? key)}
              fullWidth
            />
          );
        })}
      </Box>
    </SettingsSection>
  );
}
