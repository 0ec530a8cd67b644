import { Box, Tooltip, Typography } from '@mui/material';
import { formatDay } from '../../lib/format';
import type { DayCount } from './reportDays';

const CHART_HEIGHT = 180;

/** Jobs printed per day as plain bars (no chart library): one bar a day, scaled to the busiest day. */
export function PrintedPerDayChart({ days }: { days: readonly DayCount[] }) {
  const max = Math.max(1, ...days.map((d) => d.jobs));
  const total = days.reduce((sum, d) => sum + d.jobs, 0);
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1]);
  return (
    <Box
      role="img"
      aria-label={`Jobs printed per day: ${total} in ${days.length} days, at most ${max === 1 && total === 0 ? 0 : max} a day`}
      sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1 }}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'space-between', height: CHART_HEIGHT, textAlign: 'right' }}>
        <Typography variant="caption" color="text.secondary">
          {max}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          0
        </Typography>
      </Box>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'flex-end',
          gap: days.length > 60 ? '1px' : '3px',
          height: CHART_HEIGHT,
          borderBottom: 1,
          borderLeft: 1,
          borderColor: 'divider',
          px: 0.5,
        }}
      >
        {days.map((d) => (
          <Tooltip key={d.day} title={`${formatDay(d.day)}: ${d.jobs} job${d.jobs === 1 ? '' : 's'}, ${d.quantity} item${d.quantity === 1 ? '' : 's'}`}>
            <Box
              data-testid="printed-per-day-bar"
              data-day={d.day}
              data-jobs={d.jobs}
              sx={{
                flex: 1,
                minWidth: 0,
                height: `${(d.jobs / max) * 100}%`,
                minHeight: d.jobs ? 2 : 0,
                bgcolor: 'primary.main',
                borderRadius: '2px 2px 0 0',
                '&:hover': { bgcolor: 'secondary.main' },
              }}
            />
          </Tooltip>
        ))}
      </Box>
      <Box />
      <Box sx={{ display: 'flex', px: 0.5 }}>
        {days.map((d, i) => (
          <Box key={d.day} sx={{ flex: 1, minWidth: 0, position: 'relative', height: 20 }}>
            {labelled.has(i) ? (
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{
                  position: 'absolute',
                  whiteSpace: 'nowrap',
                  ...(i === 0 ? { left: 0 } : i === days.length - 1 ? { right: 0 } : { left: '50%', transform: 'translateX(-50%)' }),
                }}
              >
                {formatDay(d.day)}
              </Typography>
            ) : null}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
