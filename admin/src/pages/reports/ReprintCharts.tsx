// Reprints of the period by reason, by who is responsible and by product, as charts (@mui/x-charts)
// with the same figures in a small table beside them (screen readers, exact numbers).
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography, useTheme } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import type { PrintReports } from '../../../../common/api/printProduction';
import { REPRINT_REASON_LABELS, REPRINT_RESPONSIBLE_LABELS } from '../../../../common/api/reprints';
import { formatRate } from './reportDays';

type Reprints = PrintReports['reprints'];

function Figures({ label, rows }: { label: string; rows: Array<{ name: string; reprints: number; rate: number; printed?: number }> }) {
  const withPrinted = rows.some((r) => r.printed !== undefined);
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ fontWeight: 700 }}>{label.replace(/^Reprints by /, '').replace(/^./, (c) => c.toUpperCase())}</TableCell>
          {withPrinted ? (
            <TableCell align="right" sx={{ fontWeight: 700 }}>
              Prints
            </TableCell>
          ) : null}
          <TableCell align="right" sx={{ fontWeight: 700 }}>
            Reprints
          </TableCell>
          <TableCell align="right" sx={{ fontWeight: 700 }}>
            Rate
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.name}>
            <TableCell>{r.name}</TableCell>
            {withPrinted ? <TableCell align="right">{r.printed}</TableCell> : null}
            <TableCell align="right">{r.reprints}</TableCell>
            <TableCell align="right">{formatRate(r.rate)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const chartBox = { minWidth: 0, width: '100%' };

export function ReprintsByReason({ reprints }: { reprints: Reprints }) {
  const theme = useTheme();
  const rows = (reprints.byReason ?? []).map((r) => ({ name: REPRINT_REASON_LABELS[r.reason] ?? r.reason, reprints: r.reprints, rate: r.rate }));
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box data-testid="reprints-by-reason-chart" sx={chartBox}>
        <BarChart
          height={260}
          layout="horizontal"
          dataset={rows}
          yAxis={[{ scaleType: 'band', dataKey: 'name', width: 130 }]}
          xAxis={[{ tickMinStep: 1, label: 'Reprints' }]}
          series={[{ dataKey: 'reprints', label: 'Reprints', color: theme.palette.primary.main, valueFormatter: (v: number | null) => `${v ?? 0}` }]}
          hideLegend
        />
      </Box>
      <Figures label="Reprints by reason" rows={rows} />
    </Box>
  );
}

export function ReprintsByResponsible({ reprints }: { reprints: Reprints }) {
  const rows = (reprints.byResponsible ?? []).map((r) => ({ name: REPRINT_RESPONSIBLE_LABELS[r.responsible] ?? r.responsible, reprints: r.reprints, rate: r.rate }));
  const any = rows.some((r) => r.reprints > 0);
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box data-testid="reprints-by-responsible-chart" sx={chartBox}>
        {any ? (
          <PieChart height={220} series={[{ data: rows.filter((r) => r.reprints > 0).map((r) => ({ id: r.name, value: r.reprints, label: r.name })), innerRadius: 40, arcLabel: 'value' }]} />
        ) : (
          <Typography color="text.secondary">No reprints in this period</Typography>
        )}
      </Box>
      <Figures label="Reprints by responsibility" rows={rows} />
    </Box>
  );
}

export function ReprintsByProduct({ reprints }: { reprints: Reprints }) {
  const theme = useTheme();
  const rows = (reprints.byProduct ?? []).map((p) => ({ name: p.productName || '(no name)', printed: p.printed, reprints: p.reprints, rate: p.rate }));
  if (!rows.length) return <Typography color="text.secondary">No reprints in this period</Typography>;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box data-testid="reprints-by-product-chart" sx={chartBox}>
        <BarChart
          height={Math.max(160, 40 * rows.length + 60)}
          layout="horizontal"
          dataset={rows.map((r) => ({ ...r, percent: Math.round(r.rate * 1000) / 10 }))}
          yAxis={[{ scaleType: 'band', dataKey: 'name', width: 130 }]}
          xAxis={[{ label: 'Reprint rate (%)' }]}
          series={[{ dataKey: 'percent', label: 'Reprint rate', color: theme.palette.primary.main, valueFormatter: (v: number | null) => `${v ?? 0} %` }]}
          hideLegend
        />
      </Box>
      <Figures label="Reprints by product" rows={rows} />
    </Box>
  );
}
