import { Link as RouterLink } from 'react-router-dom';
import { Box, Chip, CircularProgress, Link, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { OrderRecord } from '../../../../common/api/orders';
import type { PipelineStep, PipelineStepState, PipelineStepView } from '../../../../common/api/pipeline';
import { errorMessage, formatDateTime } from '../../lib/format';
import { stepLabel } from './RerunPanel';
import { useOrderPipeline } from './useOrderPipeline';

const STATE_LABEL: Record<PipelineStepState, string> = {
  'not-configured': 'not configured',
  off: 'off',
  'waiting-for-payment': 'waiting for payment',
  'not-needed': 'not needed',
  queued: 'queued',
  done: 'done',
  failed: 'failed',
};

const STATE_COLOR: Record<PipelineStepState, 'default' | 'success' | 'error' | 'info'> = {
  'not-configured': 'default',
  off: 'default',
  'waiting-for-payment': 'default',
  'not-needed': 'default',
  queued: 'info',
  done: 'success',
  failed: 'error',
};

/** What the ref of each step is, in the service's words. */
const REF_LABEL: Record<PipelineStep, string> = { addToRaisersEdge: 'Constituent', addToAdestra: 'Contact', sendEcard: 'Message-ID' };


const nameOf = (s: PipelineStepView) => (s.step === 'sendEcard' && s.recipient ? `${stepLabel(s.step)} to ${s.recipient}` : stepLabel(s.step));

/** When: done or failed at, or when a queued step runs (an e-card's send date, or the next try after a failure). */
function when(s: PipelineStepView): string {
  if (s.state === 'queued') {
    const next = formatDateTime(s.nextAttemptAt);
    if (!next) return '';
    if (s.attempts > 0) return `tries again on ${next}`;
    return s.step === 'sendEcard' ? `sends on ${next}` : `runs on ${next}`;
  }
  return formatDateTime(s.at);
}

function Ref({ s }: { s: PipelineStepView }) {
  if (!s.ref) return null;
  const label = `${REF_LABEL[s.step] ?? 'Ref'} ${s.ref}`;
  return s.link ? (
    <Link href={s.link} target="_blank" rel="noopener noreferrer">
      {label}
    </Link>
  ) : (
    <>{label}</>
  );
}

/** A step's message; a step not set up links an admin to where its settings are set. */
function Message({ s }: { s: PipelineStepView }) {
  if (s.state === 'not-configured' && s.settingsLink) {
    return (
      <Link component={RouterLink} to={s.settingsLink} variant="body2">
        {s.message}
      </Link>
    );
  }
  return (
    <Typography variant="body2" color={s.state === 'failed' ? 'error' : undefined}>
      {s.message}
    </Typography>
  );
}

/** Check order: where each step of the charity's pipeline is for this order (CRM, Adestra, each e-card); nothing on a site without it. */
export function PipelinePanel({ order }: { order: OrderRecord }) {
  const query = useOrderPipeline(order);
  const steps = query.data?.steps ?? [];
  if (query.data && !steps.length) return null;
  return (
    <Box component="section" aria-label="Pipeline">
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        Pipeline
      </Typography>
      {query.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(query.error)}
        </Typography>
      ) : null}
      {query.isPending && !query.isError ? <CircularProgress size={16} aria-label="Loading" /> : null}
      {query.data ? (
        // A phone scrolls the table sideways inside the page, never the page.
        <TableContainer sx={{ contain: 'inline-size' }}>
          <Table size="small" aria-label="Pipeline steps">
            <TableHead>
              <TableRow>
                <TableCell>Step</TableCell>
                <TableCell>State</TableCell>
                <TableCell>Message</TableCell>
                <TableCell>Record</TableCell>
                <TableCell>When</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {steps.map((s) => (
                <TableRow key={`${s.step}:${s.lineId ?? ''}`} data-testid={`pipeline-${s.step}${s.lineId ? `-${s.lineId}` : ''}`}>
                  <TableCell>{nameOf(s)}</TableCell>
                  <TableCell>
                    <Chip size="small" label={STATE_LABEL[s.state] ?? s.state} color={STATE_COLOR[s.state] ?? 'default'} />
                  </TableCell>
                  <TableCell sx={{ minWidth: 160 }}>
                    <Message s={s} />
                  </TableCell>
                  <TableCell>
                    <Ref s={s} />
                  </TableCell>
                  <TableCell>
                    {when(s)}
                    {s.attempts > 1 ? (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {s.attempts} attempts
                      </Typography>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
    </Box>
  );
}
