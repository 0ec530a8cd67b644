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
} from '../../../../common/api/batching';
import { useEnvSettings } from './PipelineSettings';
import { SettingsProblem } from './PreflightSettings';

/** A press sheet as typed: kept as text so a half-typed number stays on screen. */
interface SheetRow {
  name: string;
  width: string;
  height: string;
  margin: string;
}

const rowsOf = (text: string): SheetRow[] | null => {
  const parsed = parsePressSheets(text);
  const sheets = text.trim() === '' ? DEFAULT_IMPOSE_SETTINGS.sheets : 'sheets' in parsed ? parsed.sheets : null;
  return sheets?.map((s) => ({ name: s.name, width: String(s.widthMm), height: String(s.heightMm), margin: String(s.marginMm) })) ?? null;
};

// Written as the setting is read ("A4 210x297 margin 5; …"): the server parses it with the same rule.
const textOf = (rows: SheetRow[]) => rows.map((r) => `${r.name.trim()} ${r.width.trim()}x${r.height.trim()} margin ${r.margin.trim() || '0'}`).join('; ');

const DEFAULT_TEXT = formatPressSheets(DEFAULT_IMPOSE_SETTINGS.sheets);

const DUPLEX: ReadonlyArray<{ value: DuplexTurn; label: string }> = [
  { value: 'turn', label: 'Turned side to side (sheetwise / work-and-turn)' },
  { value: 'tumble', label: 'Turned head to foot (work-and-tumble)' },
];

/** Site editor: the press sheets its batches are imposed on, and the automatic batching rule. */
export function BatchSettings() {
  const { valueOf, set } = useEnvSettings();
  const sheetsText = valueOf(BATCH_SETTING_KEYS.sheets);
  const [rows, setRows] = useState<SheetRow[]>(() => rowsOf(sheetsText) ?? rowsOf('')!);
  // The generic list below edits the same setting: a change made there is shown here.
  useEffect(() => {
    const current = sheetsText.trim() === '' ? DEFAULT_TEXT : sheetsText;
    if (current !== textOf(rows)) {
      const read = rowsOf(sheetsText);
      if (read) setRows(read);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the stored value re-reads it
  }, [sheetsText]);

  const changeRows = (next: SheetRow[]) => {
    setRows(next);
    const text = textOf(next);
    // The defaults are no setting: a site left on them follows them.
    set(BATCH_SETTING_KEYS.sheets, text === DEFAULT_TEXT ? '' : text);
  };
  const changeRow = (i: number, change: Partial<SheetRow>) => changeRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));

  // The server refuses a save with this same sentence: shown as typed, before Save.
  const problem = batchSettingsProblem((key) => valueOf(key) || undefined);
  const duplex = (valueOf(BATCH_SETTING_KEYS.duplex) || DEFAULT_IMPOSE_SETTINGS.duplex) as DuplexTurn;
  const auto = valueOf(BATCH_SETTING_KEYS.auto).trim() === '1';

  return (
    <Box component="section" aria-label="Press sheets and batching" sx={{ mt: 2, width: '100%', maxWidth: 720 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Press sheets and batching
      </Typography>
      <Typography variant="body2" color="text.secondary">
        The sheets this site&apos;s batches are printed on: each batch takes the one that holds the most items. Sizes in millimetres.
      </Typography>

      <Box component="ul" aria-label="Press sheets" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
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
        {sheetsText.trim() ? (
          <Button size="small" onClick={() => changeRows(rowsOf('')!)}>
            Back to the standard sheets
          </Button>
        ) : null}
      </Box>

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
      <SettingsProblem problem={problem} />
    </Box>
  );
}
