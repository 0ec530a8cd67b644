import { useEffect, useState } from 'react';
import { Box, Button, FormControlLabel, FormHelperText, IconButton, Radio, RadioGroup, Switch, TextField, Tooltip, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  BATCH_SETTING_KEYS,
  DEFAULT_IMPOSE_SETTINGS,
  DEFAULT_SHEETS_PER_BATCH,
  batchSettingsProblem,
  formatPressSheets,
  parsePressSheets,
  type DuplexTurn,
  type SheetSize,
} from '../../../../common/api/batching';
import { useEnvSettings } from './PipelineSettings';
import { SettingsProblem } from './PreflightSettings';
import { SettingsSection } from './SettingsSection';

/** A press sheet as typed: kept as text so a half-typed number stays on screen. */
interface SheetRow {
  name: string;
  width: string;
  height: string;
  margin: string;
}

/** The rows of a sheet list setting as typed; '' gives the defaults; null: the text does not parse. */
const rowsOf = (text: string, defaults: readonly SheetSize[]): SheetRow[] | null => {
  const parsed = parsePressSheets(text);
  const sheets = text.trim() === '' ? defaults : 'sheets' in parsed ? parsed.sheets : null;
  return sheets?.map((s) => ({ name: s.name, width: String(s.widthMm), height: String(s.heightMm), margin: String(s.marginMm) })) ?? null;
};

// Written as the setting is read ("A4 210x297 margin 5; …"): the server parses it with the same rule.
const textOf = (rows: SheetRow[]) => rows.map((r) => `${r.name.trim()} ${r.width.trim()}x${r.height.trim()} margin ${r.margin.trim() || '0'}`).join('; ');

const DUPLEX: ReadonlyArray<{ value: DuplexTurn; label: string }> = [
  { value: 'turn', label: 'Turned side to side (sheetwise / work-and-turn)' },
  { value: 'tumble', label: 'Turned head to foot (work-and-tumble)' },
];

/**
 * One sheet list setting (PRESS_SHEETS, MUG_SHEETS, POSTER_SHEETS) as rows: name, width, height,
 * margin. The defaults are no setting: a site left on them follows them.
 */
function SheetList({ settingKey, defaults, label }: { settingKey: string; defaults: readonly SheetSize[]; label: string }) {
  const { valueOf, set } = useEnvSettings();
  const text = valueOf(settingKey);
  const defaultText = formatPressSheets(defaults as SheetSize[]);
  const [rows, setRows] = useState<SheetRow[]>(() => rowsOf(text, defaults) ?? rowsOf('', defaults)!);
  // The generic list below edits the same setting: a change made there is shown here.
  useEffect(() => {
    const current = text.trim() === '' ? defaultText : text;
    if (current !== textOf(rows)) {
      const read = rowsOf(text, defaults);
      if (read) setRows(read);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the stored value re-reads it
  }, [text]);

  const changeRows = (next: SheetRow[]) => {
    setRows(next);
    const written = textOf(next);
    set(settingKey, written === defaultText ? '' : written);
  };
  const changeRow = (i: number, change: Partial<SheetRow>) => changeRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <Box role="group" aria-label={label}>
      <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
        {rows.map((row, i) => (
          <Box component="li" key={i} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
            <TextField size="small" label="Sheet" value={row.name} onChange={(e) => changeRow(i, { name: e.target.value })} sx={{ flex: '2 1 120px' }} />
            <TextField size="small" label="Width" value={row.width} onChange={(e) => changeRow(i, { width: e.target.value.trim() })} slotProps={{ htmlInput: { inputMode: 'decimal' } }} sx={{ flex: '1 1 70px' }} />
            <TextField size="small" label="Height" value={row.height} onChange={(e) => changeRow(i, { height: e.target.value.trim() })} slotProps={{ htmlInput: { inputMode: 'decimal' } }} sx={{ flex: '1 1 70px' }} />
            <TextField size="small" label="Margin" value={row.margin} onChange={(e) => changeRow(i, { margin: e.target.value.trim() })} slotProps={{ htmlInput: { inputMode: 'decimal' } }} sx={{ flex: '1 1 70px' }} />
            <Tooltip title="Remove this sheet">
              <span>
                <IconButton aria-label={`Remove sheet ${row.name || i + 1}`} disabled={rows.length === 1} onClick={() => changeRows(rows.filter((_, j) => j !== i))}>
                  <DeleteIcon />
                </IconButton>
              </span>
            </Tooltip>
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" onClick={() => changeRows([...rows, { name: '', width: '', height: '', margin: '0' }])}>
          Add sheet
        </Button>
        {text.trim() ? (
          <Button size="small" onClick={() => changeRows(rowsOf('', defaults)!)}>
            Back to the standard sheets
          </Button>
        ) : null}
      </Box>
    </Box>
  );
}

/** Site editor: the press sheets its batches are imposed on, the mug and poster sheets, and the automatic batching rule. */
export function BatchSettings() {
  const { valueOf, set } = useEnvSettings();

  // The server refuses a save with this same sentence: shown as typed, before Save.
  const problem = batchSettingsProblem((key) => valueOf(key) || undefined);
  const duplex = (valueOf(BATCH_SETTING_KEYS.duplex) || DEFAULT_IMPOSE_SETTINGS.duplex) as DuplexTurn;
  const auto = valueOf(BATCH_SETTING_KEYS.auto).trim() === '1';
  const mugMirror = valueOf(BATCH_SETTING_KEYS.mugMirror).trim() === '1';

  return (
    <SettingsSection
      title="Press sheets and batching"
      description="The sheets this site's batches are printed on: each batch takes the one that holds the most items. Sizes in millimetres."
      problem={<SettingsProblem problem={problem} />}
    >
      <SheetList settingKey={BATCH_SETTING_KEYS.sheets} defaults={DEFAULT_IMPOSE_SETTINGS.sheets} label="Press sheets" />

      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 2 }}>
        <TextField
          label="Gap between items (mm)"
          value={valueOf(BATCH_SETTING_KEYS.gap)}
          onChange={(e) => set(BATCH_SETTING_KEYS.gap, e.target.value.trim())}
          placeholder={String(DEFAULT_IMPOSE_SETTINGS.gapMm)}
          helperText="The crop marks are drawn in it"
          slotProps={{ htmlInput: { inputMode: 'decimal' }, inputLabel: { shrink: true } }}
          sx={{ flex: '1 1 200px' }}
        />
        <TextField
          label="Barcode strip under each item (mm)"
          value={valueOf(BATCH_SETTING_KEYS.slug)}
          onChange={(e) => set(BATCH_SETTING_KEYS.slug, e.target.value.trim())}
          placeholder={String(DEFAULT_IMPOSE_SETTINGS.slugMm)}
          helperText="The item's slug: its barcode, order and item count"
          slotProps={{ htmlInput: { inputMode: 'decimal' }, inputLabel: { shrink: true } }}
          sx={{ flex: '1 1 200px' }}
        />
      </Box>

      <Typography variant="body2" id="duplex-label" sx={{ mt: 2 }}>
        For the second side, the sheet is
      </Typography>
      <RadioGroup aria-labelledby="duplex-label" value={duplex} onChange={(e) => set(BATCH_SETTING_KEYS.duplex, e.target.value === DEFAULT_IMPOSE_SETTINGS.duplex ? '' : e.target.value)}>
        {DUPLEX.map((d) => (
          <FormControlLabel key={d.value} value={d.value} control={<Radio size="small" />} label={d.label} />
        ))}
      </RadioGroup>

      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        Mug transfer sheets
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Mug wraps are imposed several up on these sublimation sheets.
      </Typography>
      <SheetList settingKey={BATCH_SETTING_KEYS.mugSheets} defaults={DEFAULT_IMPOSE_SETTINGS.mugSheets} label="Mug transfer sheets" />
      <Box sx={{ mt: 1 }}>
        <FormControlLabel label="Mirror mug transfers" control={<Switch checked={mugMirror} onChange={(e) => set(BATCH_SETTING_KEYS.mugMirror, e.target.checked ? '1' : '')} />} />
        <FormHelperText sx={{ mt: -0.5, ml: 6 }}>On when the mug printer wants each wrap drawn back to front (the transfer is pressed face down)</FormHelperText>
      </Box>

      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        Poster sheets
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Posters print one up, on the smallest of these that holds one.
      </Typography>
      <SheetList settingKey={BATCH_SETTING_KEYS.posterSheets} defaults={DEFAULT_IMPOSE_SETTINGS.posterSheets} label="Poster sheets" />
      <TextField
        label="Poster roll width (mm)"
        value={valueOf(BATCH_SETTING_KEYS.posterRoll)}
        onChange={(e) => set(BATCH_SETTING_KEYS.posterRoll, e.target.value.trim())}
        placeholder="0"
        helperText="A poster no sheet holds is printed on the roll, cut to its length; empty or 0: no roll"
        slotProps={{ htmlInput: { inputMode: 'decimal' }, inputLabel: { shrink: true } }}
        sx={{ mt: 1, width: '100%', maxWidth: 400 }}
      />

      <Box sx={{ mt: 1 }}>
        <FormControlLabel label="Batch jobs automatically" control={<Switch checked={auto} onChange={(e) => set(BATCH_SETTING_KEYS.auto, e.target.checked ? '1' : '')} />} />
        <FormHelperText sx={{ mt: -0.5, ml: 6 }}>
          Ready jobs of the same product, size and paper stock are gathered into a batch until it is full or the daily cut-off
        </FormHelperText>
      </Box>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 1 }}>
        <TextField
          label="Daily cut-off"
          value={valueOf(BATCH_SETTING_KEYS.cutOff)}
          onChange={(e) => set(BATCH_SETTING_KEYS.cutOff, e.target.value.trim())}
          placeholder="15:00"
          helperText="24-hour clock, shop time; empty: batches close only when full or printed"
          disabled={!auto}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: '1 1 200px' }}
        />
        <TextField
          label="Sheets per batch"
          value={valueOf(BATCH_SETTING_KEYS.sheetsPerBatch)}
          onChange={(e) => set(BATCH_SETTING_KEYS.sheetsPerBatch, e.target.value.trim())}
          placeholder={String(DEFAULT_SHEETS_PER_BATCH)}
          helperText="A batch is full when its sheets are"
          disabled={!auto}
          slotProps={{ htmlInput: { inputMode: 'numeric' }, inputLabel: { shrink: true } }}
          sx={{ flex: '1 1 200px' }}
        />
      </Box>
    </SettingsSection>
  );
}
