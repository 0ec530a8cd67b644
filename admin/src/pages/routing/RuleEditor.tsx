// One routing rule as a form: its name, its conditions (all must hold) and its action; dragged by
// its handle, or moved with the arrows, to change the order in which rules are tried.
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Card, CardContent, Chip, IconButton, Stack, TextField, Tooltip } from '@mui/material';
import type { RoutingRule, RoutingWhen } from '../../../../common/api/routing';
import { ActionFields } from './ActionFields';
import { CONDITION_LABELS, LIST_CONDITIONS, RANGE_CONDITIONS, listOf, rangeOf, textOf } from './routingForm';

interface Props {
  rule: RoutingRule;
  index: number;
  count: number;
  routed: number;
  errors: Record<string, string>;
  onChange(rule: RoutingRule): void;
  onMove(to: number): void;
  onDelete(): void;
}

/** A pair of fields (a range, a property and its value) takes two columns so its labels are read whole. */
const PAIR = { gridColumn: { xs: 'auto', sm: 'span 2' } } as const;

export function RuleEditor({ rule, index, count, routed, errors, onChange, onMove, onDelete }: Props) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id: rule.id });
  const at = `rules.${index}`;
  const setWhen = (patch: Partial<RoutingWhen>) => onChange({ ...rule, when: { ...rule.when, ...patch } });
  const err = (field: string) => errors[`${at}.${field}`];
  return (
    <Card ref={setNodeRef} variant="outlined" sx={{ transform: CSS.Transform.toString(transform), transition }} data-testid={`rule-${index}`}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center' }}>
          <Tooltip title="Drag to reorder">
            <IconButton size="small" aria-label={`Drag rule ${index + 1}`} {...attributes} {...listeners}>
              <DragIndicatorIcon />
            </IconButton>
          </Tooltip>
          <Chip size="small" label={`#${index + 1}`} />
          <TextField size="small" label="Rule name" value={rule.name} onChange={(e) => onChange({ ...rule, name: e.target.value })} error={Boolean(err('name'))} helperText={err('name')} sx={{ flex: 1 }} />
          <Chip size="small" color="info" label={`${routed} line${routed === 1 ? '' : 's'} in 30 days`} />
          <IconButton size="small" aria-label="Move up" disabled={index === 0} onClick={() => onMove(index - 1)}>
            <ArrowUpwardIcon />
          </IconButton>
          <IconButton size="small" aria-label="Move down" disabled={index === count - 1} onClick={() => onMove(index + 1)}>
            <ArrowDownwardIcon />
          </IconButton>
          <IconButton size="small" aria-label="Delete rule" onClick={onDelete}>
            <DeleteIcon />
          </IconButton>
        </Stack>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 1 }}>
          {LIST_CONDITIONS.map((k) => (
            <TextField key={k} size="small" label={CONDITION_LABELS[k]} value={textOf(rule.when[k])} onChange={(e) => setWhen({ [k]: listOf(e.target.value) })} error={Boolean(err(`when.${k}`))} helperText={err(`when.${k}`)} />
          ))}
          <TextField size="small" label={CONDITION_LABELS.tags} value={textOf(rule.when.tags)} onChange={(e) => { const v = listOf(e.target.value); setWhen({ tags: v === undefined ? undefined : Array.isArray(v) ? v : [v] }); }} />
          <TextField size="small" type="number" label={CONDITION_LABELS.designId} value={rule.when.designId ?? ''} onChange={(e) => setWhen({ designId: e.target.value ? Number(e.target.value) : undefined })} />
          {RANGE_CONDITIONS.map((k) => (
            <Stack key={k} direction="row" spacing={0.5} sx={PAIR}>
              <TextField size="small" type="number" label={`${CONDITION_LABELS[k]} from`} value={rule.when[k]?.min ?? ''} onChange={(e) => setWhen({ [k]: rangeOf(e.target.value, String(rule.when[k]?.max ?? '')) })} error={Boolean(err(`when.${k}`))} helperText={err(`when.${k}`)} />
              <TextField size="small" type="number" label="to" value={rule.when[k]?.max ?? ''} onChange={(e) => setWhen({ [k]: rangeOf(String(rule.when[k]?.min ?? ''), e.target.value) })} />
            </Stack>
          ))}
          <Stack direction="row" spacing={0.5} sx={PAIR}>
            <TextField size="small" label="Property name" value={rule.when.property?.name ?? ''} onChange={(e) => setWhen({ property: e.target.value ? { ...rule.when.property, name: e.target.value } : undefined })} />
            <TextField size="small" label="value" value={rule.when.property?.value ?? ''} onChange={(e) => rule.when.property && setWhen({ property: { name: rule.when.property.name, ...(e.target.value ? { value: e.target.value } : {}) } })} />
          </Stack>
        </Box>
        <ActionFields then={rule.then} onChange={(then) => onChange({ ...rule, then })} errors={errors} at={`${at}.then`} />
      </CardContent>
    </Card>
  );
}
