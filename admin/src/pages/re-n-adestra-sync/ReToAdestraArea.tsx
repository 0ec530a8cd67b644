import { Box, Paper, Tab, Tabs, Typography } from '@mui/material';
import { DaySync } from './DaySync';
import { ExecutionLogs } from './ExecutionLogs';
import { JobSchedule } from './JobSchedule';
import { RaisersEdgeConnection } from './RaisersEdgeConnection';
import { SingleSync } from './SingleSync';

export const RE_VIEWS = [
  { value: 'single', label: 'Single check' },
  { value: 'day', label: 'Sync by day' },
  { value: 'logs', label: 'Execution logs' },
] as const;

export type ReView = (typeof RE_VIEWS)[number]['value'];

export const isReView = (v: string | null): v is ReView => RE_VIEWS.some((r) => r.value === v);

/** RE to Adestra: the CRM connection, the CRM job's hour, then single check, sync by day and the execution logs. */
export function ReToAdestraArea({ site, view, onViewChange }: { site: string; view: ReView; onViewChange: (view: ReView) => void }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="h6" component="h2">
        Raiser&apos;s Edge to Adestra
      </Typography>
      <RaisersEdgeConnection site={site} />
      <JobSchedule site={site} job="re-sync" />
      <Paper variant="outlined">
        <Tabs value={view} onChange={(_, v: ReView) => onViewChange(v)} aria-label="RE to Adestra" variant="scrollable" scrollButtons="auto" sx={{ borderBottom: 1, borderColor: 'divider', px: 1, contain: 'inline-size' }}>
          {RE_VIEWS.map((v) => (
            <Tab key={v.value} value={v.value} label={v.label} id={`re-tab-${v.value}`} aria-controls={`re-panel-${v.value}`} />
          ))}
        </Tabs>
        <Box role="tabpanel" id={`re-panel-${view}`} aria-labelledby={`re-tab-${view}`} sx={{ p: 2 }}>
          {view === 'single' ? <SingleSync site={site} /> : view === 'day' ? <DaySync site={site} /> : <ExecutionLogs site={site} />}
        </Box>
      </Paper>
    </Box>
  );
}
