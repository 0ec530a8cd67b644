import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Box, Chip, CircularProgress, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { OrderRecord } from '../../../../common/api/orders';
import type { PipelineStep, PipelineStepState, PipelineStepView } from '../../../../common/api/pipeline';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { storeOrderId } from '../../providers/orders';
import { stepLabel } from './RerunPanel';

/** While a step waits in the outbox the panel reads again this often, so it turns done or failed by itself. */
export const PIPELINE_POLL_MS = 5_000;

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

/** The query of an order's pipeline: Re-run refreshes it once done. */
export const pipelineQueryKey = (order: OrderRecord) => ['order-pipeline', order.siteId, storeOrderId(order)] as const;

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

/** Check order: where each step of the charity's pipeline is for this order (CRM, Adestra, each e-card). */
export function PipelinePanel({ order }: { order: OrderRecord }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const orderId = storeOrderId(order);
  const query = useQuery({
    queryKey: pipelineQueryKey(order),
    queryFn: () => dataProvider.orderPipeline(orderId, order.siteId),
    retry: false,
    refetchInterval: (q) => (q.state.data?.steps.some((s) => s.state === 'queued') ? PIPELINE_POLL_MS : false),
  });
  const steps = query.data?.steps ?? [];
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
                <TableCell>
                  <Typography variant="body2" color={s.state === 'failed' ? 'error' : undefined}>
                    {s.message}
                  </Typography>
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
      ) : null}
    </Box>
  );
}
