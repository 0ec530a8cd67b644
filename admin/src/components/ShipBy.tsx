import { Box, Chip } from '@mui/material';
import type { Due, ShipByState } from '../../../common/api/shipBy';
import { formatDate, formatTime } from '../lib/format';

/** The marker of each due state worth a look (none when ok): late red, at risk amber, due today blue. */
export const DUE_MARKERS: Record<Exclude<Due, 'ok'>, { label: string; color: 'error' | 'warning' | 'info'; title: string }> = {
  late: { label: 'Late', color: 'error', title: 'Past its ship-by date and not shipped' },
  atRisk: { label: 'At risk', color: 'warning', title: 'Due to ship within hours and not printed yet' },
  today: { label: 'Due today', color: 'info', title: 'Must ship today' },
};

/** Late, At risk or Due today as a small chip; nothing when the line is fine (or the server sent no due state). */
export function DueChip({ due }: { due?: Due }) {
  const marker = due && due !== 'ok' ? DUE_MARKERS[due] : undefined;
  if (!marker) return null;
  return (
    <Chip
      size="small"
      // Filled: amber with dark text reads; an outlined amber chip on white does not.
      variant="filled"
      color={marker.color}
      label={marker.label}
      title={marker.title}
      sx={{ height: 20, fontSize: 11, fontWeight: 600 }}
    />
  );
}

/** A job's or order line's ship-by, DD/MM/YYYY HH:mm, with its marker; nothing for an e-card (no ship-by). */
export function ShipBy({ shipBy, due, label = false }: Partial<ShipByState> & { label?: boolean }) {
  if (!shipBy) return null;
  return (
    <Box component="span" data-testid="ship-by" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, flexWrap: 'wrap', whiteSpace: 'nowrap' }}>
      {/* A narrow column breaks between the day and the hour, never inside either. */}
      <Box component="span" sx={{ whiteSpace: 'normal', color: due === 'late' ? 'error.main' : undefined, fontWeight: due === 'late' ? 600 : undefined }}>
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {label ? 'Ship by ' : ''}
          {formatDate(shipBy)}
        </Box>{' '}
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatTime(shipBy)}
        </Box>
      </Box>
      <DueChip due={due} />
    </Box>
  );
}
