// A rule's action (or the default's): where the line goes, with what that action takes — the
// provider's destination, the reason staff read on a held line, and for Make in house what a full
// floor, or a shortage of the line's blanks, does instead.
import { Box, MenuItem, TextField } from '@mui/material';
import { ROUTING_ACTIONS, ROUTING_ACTION_NAMES, type RoutingAction, type RoutingFallback, type RoutingThen } from '../../../../common/api/routing';

interface Props {
  then: RoutingThen;
  onChange(then: RoutingThen): void;
  errors: Record<string, string>;
  at: string;
}

/** A fallback's select shows its default choice (the empty value) by name, not as a blank field. */
const SHOW_EMPTY = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

export function ActionFields({ then, onChange, errors, at }: Props) {
  const err = (f: string) => errors[`${at}.${f}`];
  return (
    <Box sx={{ mt: 1, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: 1, alignItems: 'start' }}>
      <TextField select size="small" label="Then" value={then.action} onChange={(e) => onChange({ action: e.target.value as RoutingAction })} >
        {ROUTING_ACTIONS.map((a) => (
          <MenuItem key={a} value={a}>
            {ROUTING_ACTION_NAMES[a]}
          </MenuItem>
        ))}
      </TextField>
      {then.action === 'provider' && <TextField size="small" label="Destination account (optional)" value={then.destination ?? ''} onChange={(e) => onChange({ ...then, destination: e.target.value || undefined })} error={Boolean(err('destination'))} helperText={err('destination')} />}
      {then.action === 'hold' && <TextField size="small" label="Reason shown to staff" value={then.reason ?? ''} onChange={(e) => onChange({ ...then, reason: e.target.value || undefined })} error={Boolean(err('reason'))} helperText={err('reason')} />}
      {then.action === 'inHouse' && (
        <TextField
          select
          size="small"
          label="If the floor is full"
          value={then.ifFull?.action ?? ''}
          onChange={(e) => onChange({ ...then, ifFull: e.target.value ? ({ action: e.target.value } as RoutingFallback) : undefined })}
          slotProps={SHOW_EMPTY}
        >
          <MenuItem value="">Hold for review</MenuItem>
          <MenuItem value="provider">{ROUTING_ACTION_NAMES.provider}</MenuItem>
        </TextField>
      )}
      {then.action === 'inHouse' && (
        <TextField
          select
          size="small"
          label="If out of stock"
          value={then.ifOutOfStock?.action ?? ''}
          onChange={(e) => onChange({ ...then, ifOutOfStock: e.target.value ? ({ action: e.target.value } as RoutingFallback) : undefined })}
          slotProps={SHOW_EMPTY}
          error={Boolean(err('ifOutOfStock'))}
          helperText={err('ifOutOfStock') ?? (then.ifOutOfStock ? 'When the stock of its blanks cannot cover the line' : 'Its job waits for stock')}
        >
          <MenuItem value="">Make in house all the same</MenuItem>
          <MenuItem value="provider">{ROUTING_ACTION_NAMES.provider}</MenuItem>
          <MenuItem value="hold">{ROUTING_ACTION_NAMES.hold}</MenuItem>
        </TextField>
      )}
      {then.action === 'inHouse' && then.ifOutOfStock?.action === 'provider' && (
        <TextField
          size="small"
          label="Out-of-stock destination"
          value={then.ifOutOfStock.destination ?? ''}
          onChange={(e) => onChange({ ...then, ifOutOfStock: { action: 'provider', ...(e.target.value ? { destination: e.target.value } : {}) } })}
          error={Boolean(err('ifOutOfStock.destination'))}
          helperText={err('ifOutOfStock.destination')}
        />
      )}
    </Box>
  );
}
