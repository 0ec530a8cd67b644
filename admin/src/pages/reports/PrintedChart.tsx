import { Box, Tooltip, Typography } from '@mui/material';
import type { ReportBucket } from '../../../../common/api/printProduction';
import { formatDay } from '../../lib/format';
import type { PeriodCount } from './reportDays';

const CHART_HEIGHT = 180;

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The label of one bar: its day, the week it starts, or its month. */
export function periodLabel(bucket: ReportBucket, p: Pick<PeriodCount, 'start' | 'end'>): string {
  if (bucket === 'day') return formatDay(p.start);
  if (bucket === 'month') return MONTH.format(new Date(`${p.start}T00:00:00Z`));
  return p.start === p.end ? formatDay(p.start) : `${formatDay(p.start)}–${formatDay(p.end)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Jobs printed per day, week or month as plain bars (no chart library), scaled to the busiest bar. */
export function PrintedChart({ bucket, periods }: { bucket: ReportBucket; periods: readonly PeriodCount[] }) {
  const max = Math.max(1, ...periods.map((d) => d.jobs));
  const total = periods.reduce((sum, d) => sum + d.jobs, 0);
  const labelled = new Set([0, Math.floor((periods.length - 1) / 2), periods.length - 1]);
  return (
    <Box
      role="img"
      aria-label={`Jobs printed per ${bucket}: ${total} in ${plural(periods.length, bucket)}, at most ${max === 1 && total === 0 ? 0 : max} a ${bucket}`}
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
          gap: periods.length > 60 ? '1px' : '3px',
          height: CHART_HEIGHT,
          borderBottom: 1,
          borderLeft: 1,
          borderColor: 'divider',
          px: 0.5,
        }}
      >
        {periods.map((d) => (
          <Tooltip key={d.start} title={`${periodLabel(bucket, d)}: ${plural(d.jobs, 'job')}, ${plural(d.quantity, 'item')}`}>
            <Box
              data-testid="printed-bar"
              data-start={d.start}
              data-end={d.end}
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
        {periods.map((d, i) => (
          <Box key={d.start} sx={{ flex: 1, minWidth: 0, position: 'relative', height: 20 }}>
            {labelled.has(i) ? (
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{
                  position: 'absolute',
                  whiteSpace: 'nowrap',
                  ...(i === 0 ? { left: 0 } : i === periods.length - 1 ? { right: 0 } : { left: '50%', transform: 'translateX(-50%)' }),
                }}
              >
                {periodLabel(bucket, d)}
              </Typography>
            ) : null}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
