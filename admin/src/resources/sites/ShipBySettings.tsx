import { useEffect, useState } from 'react';
import { Box, Checkbox, FormControlLabel, FormGroup, FormLabel, TextField, Typography } from '@mui/material';
import {
  DEFAULT_SHIP_BY_SETTINGS,
  SHIPPED_PRODUCT_TYPES,
  SHIP_BY_SETTING_KEYS,
  WEEKDAYS,
  shipBySettingProblem,
  shipBySettingsOf,
  type Weekday,
} from '../../../../common/api/shipBy';
import { DAY_PLACEHOLDER, formatDay, parseDay } from '../../lib/format';
import { useEnvSettings } from './PipelineSettings';
import { SettingsSection } from './SettingsSection';

const K = SHIP_BY_SETTING_KEYS;
const DAY_FIELDS = [
  ...SHIPPED_PRODUCT_TYPES.map((t) => ({ key: K.productionDays[t], label: `${t} (working days)`, fallback: DEFAULT_SHIP_BY_SETTINGS.productionDays[t] })),
  { key: K.otherDays, label: 'Other products (working days)', fallback: DEFAULT_SHIP_BY_SETTINGS.otherDays },
];
// Monday first, as a week is read in the shop.
const WEEK: Weekday[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const shownDays = (days: string[]) => days.map(formatDay).join(', ');
const sameDays = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((d) => b.includes(d));

/** Holidays as people type them (DD/MM/YYYY, separated by commas or spaces) → the stored YYYY-MM-DD list, or the first wrong one. */
function parseHolidays(text: string): { days: string[]; error?: string } {
  const days: string[] = [];
  for (const part of text.split(/[\s,;]+/).filter(Boolean)) {
    const parsed = parseDay(part);
    if (parsed.error !== undefined) return { days, error: `${parsed.error} ("${part}")` };
    if (!days.includes(parsed.day)) days.push(parsed.day);
  }
  return { days };
}

/** Site editor: when this site's order lines must ship (production days, the daily cut-off, days off, the at-risk warning). */
export function ShipBySettings() {
  const { valueOf, set } = useEnvSettings();
  const read = (key: string) => valueOf(key) || undefined;
  const settings = shipBySettingsOf(read);
  const problemOf = (key: string) => shipBySettingProblem(read, key);

  // Typed DD/MM/YYYY (spec §9), stored YYYY-MM-DD: the field keeps what is typed until it parses.
  const stored = valueOf(K.holidays).split(/[\s,;]+/).filter(Boolean);
  const [holidays, setHolidays] = useState(() => shownDays(stored));
  const [holidayError, setHolidayError] = useState<string>();
  const storedKey = stored.join(',');
  // The stored list changed elsewhere (the generic list below): show it.
  useEffect(() => {
    const days = storedKey ? storedKey.split(',') : [];
    setHolidays((text) => (sameDays(parseHolidays(text).days, days) ? text : shownDays(days)));
  }, [storedKey]);
  const typeHolidays = (text: string) => {
    setHolidays(text);
    const { days, error } = parseHolidays(text);
    setHolidayError(error);
    if (!error) set(K.holidays, days.join(','));
  };

  const toggleDay = (day: Weekday, off: boolean) => {
    const next = WEEKDAYS.filter((d) => (d === day ? off : settings.nonWorkingDays.includes(d)));
    // The default needs no setting.
    set(K.nonWorkingDays, sameDays(next, DEFAULT_SHIP_BY_SETTINGS.nonWorkingDays) ? '' : next.join(','));
  };

  const numberField = (key: string, label: string, placeholder: string, helperText: string) => {
    const problem = problemOf(key);
    return (
      <TextField
        key={key}
        label={label}
        value={valueOf(key)}
        onChange={(e) => set(key, e.target.value.trim())}
        placeholder={placeholder}
        error={Boolean(problem)}
        helperText={problem ?? helperText}
        slotProps={{ htmlInput: { inputMode: 'numeric' }, inputLabel: { shrink: true } }}
        sx={{ flex: '1 1 200px' }}
      />
    );
  };

  return (
    <SettingsSection
      title="Ship-by dates"
      description="Every order line must ship by the cut-off time on its last working day of production. An order placed after the cut-off counts from the next working day. Empty: the default."
    >
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {DAY_FIELDS.map(({ key, label, fallback }) => numberField(key, label, String(fallback), `Default ${fallback}`))}
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 2 }}>
        <TextField
          label="Daily cut-off (HH:MM)"
          value={valueOf(K.cutoff)}
          onChange={(e) => set(K.cutoff, e.target.value.trim())}
          placeholder={DEFAULT_SHIP_BY_SETTINGS.cutoff}
          error={Boolean(problemOf(K.cutoff))}
          helperText={problemOf(K.cutoff) ?? `Orders after it count from the next working day; default ${DEFAULT_SHIP_BY_SETTINGS.cutoff}`}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: '1 1 200px' }}
        />
        {numberField(K.atRiskHours, 'At risk within (hours)', String(DEFAULT_SHIP_BY_SETTINGS.atRiskHours), `Not printed this close to its ship-by: marked At risk; default ${DEFAULT_SHIP_BY_SETTINGS.atRiskHours}`)}
      </Box>
      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
        <FormLabel component="legend">Days nobody works</FormLabel>
        <FormGroup row>
          {WEEK.map((day) => (
            <FormControlLabel
              key={day}
              label={day}
              control={<Checkbox size="small" checked={settings.nonWorkingDays.includes(day)} onChange={(e) => toggleDay(day, e.target.checked)} />}
            />
          ))}
        </FormGroup>
        {problemOf(K.nonWorkingDays) ? (
          <Typography color="error" role="alert" variant="body2">
            {problemOf(K.nonWorkingDays)}
          </Typography>
        ) : null}
      </Box>
      <TextField
        label="Holidays"
        value={holidays}
        onChange={(e) => typeHolidays(e.target.value)}
        placeholder={`${DAY_PLACEHOLDER}, ${DAY_PLACEHOLDER}`}
        error={Boolean(holidayError ?? problemOf(K.holidays))}
        helperText={holidayError ?? problemOf(K.holidays) ?? 'Days off besides the weekly ones, DD/MM/YYYY, separated by commas'}
        slotProps={{ inputLabel: { shrink: true } }}
        fullWidth
        sx={{ mt: 2 }}
      />
    </SettingsSection>
  );
}
