import { Accordion, AccordionDetails, AccordionSummary, Box, FormControlLabel, FormHelperText, MenuItem, Switch, TextField, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { SETTING_GROUPS, SETTING_LIST, YES_WORDS, settingProblem, type SettingDef, type SettingGroup } from '../../../../common/siteSettings';
import { PIPELINE_FIELD_KEYS, useEnvSettings } from './PipelineSettings';

// The connections' settings, drawn from the settings registry (common/siteSettings.ts): a group per
// service, an input per key an admin sets, its help and its default. Like the other sections it is a
// view of settings.env; the sections with their own editor (pipeline, print checks, press sheets,
// ship-by) draw theirs.
const GROUPS: readonly SettingGroup[] = ['provider', 'store', 'crm', 'emailPlatform'];

const shownHere = (d: SettingDef & { key: string }) => d.setBy === 'admin' && !PIPELINE_FIELD_KEYS.includes(d.key);

function SettingInput({ def, value, set }: { def: SettingDef & { key: string }; value: string; set: (v: string) => void }) {
  const problem = settingProblem(def.key, value);
  const helperText = problem ?? def.help;
  if (def.type === 'boolean' || def.type === 'switch') {
    const on = (YES_WORDS as readonly string[]).includes(value.trim().toLowerCase());
    return (
      <Box>
        {/* Off is no setting: a site left off follows the default. */}
        <FormControlLabel label={def.key} control={<Switch checked={on} onChange={(e) => set(e.target.checked ? '1' : '')} />} />
        <FormHelperText error={Boolean(problem)} sx={{ mt: -0.5, ml: 6 }}>
          {helperText}
        </FormHelperText>
      </Box>
    );
  }
  if (def.type === 'choice' && def.choices) {
    return (
      <TextField select label={def.key} value={value.trim().toLowerCase()} onChange={(e) => set(e.target.value)} error={Boolean(problem)} helperText={helperText} fullWidth>
        <MenuItem value="">{def.defaultText ? `Default (${def.defaultText})` : 'Not set'}</MenuItem>
        {def.choices.map((c) => (
          <MenuItem key={c} value={c}>
            {c}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  return (
    <TextField
      label={def.secret ? `${def.key} (secret)` : def.key}
      value={value}
      onChange={(e) => set(e.target.value)}
      placeholder={def.defaultText || undefined}
      error={Boolean(problem)}
      helperText={helperText}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: def.type === 'integer' ? { inputMode: 'numeric' } : {} }}
      fullWidth
    />
  );
}

/** Site editor: the print provider's, the store's, the CRM's and the email platform's settings. */
export function RegistrySettings() {
  const { valueOf, set } = useEnvSettings();
  return (
    <Box component="section" aria-label="Connections" sx={{ mt: 2, width: '100%', maxWidth: 720 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Connections
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        The services this site works with. Empty: the default. Secret values are shown as ******** and kept unless you type a new one.
      </Typography>
      {GROUPS.map((group) => {
        const defs = SETTING_LIST.filter((d) => d.group === group && shownHere(d));
        const set_ = defs.filter((d) => valueOf(d.key).trim() !== '').length;
        return (
          // Closed until opened (and its inputs not drawn): the form stays short, and a value shows once.
          <Accordion key={group} disableGutters slotProps={{ transition: { unmountOnExit: true } }}>
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Typography sx={{ flexGrow: 1 }}>{SETTING_GROUPS[group]}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mr: 1 }}>
                {set_ ? `${set_} of ${defs.length} set` : 'not set up'}
              </Typography>
            </AccordionSummary>
            <AccordionDetails sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
              {defs.map((def) => (
                <SettingInput key={def.key} def={def} value={valueOf(def.key)} set={(v) => set(def.key, v)} />
              ))}
            </AccordionDetails>
          </Accordion>
        );
      })}
    </Box>
  );
}
