import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Alert, Box, Button, Checkbox, CircularProgress, FormControlLabel, FormGroup, Typography } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import type { OrderRecord, RerunFlags, RerunResult } from '../../../../common/api/orders';
import { ErrorDataPanel } from '../../components/ErrorDataPanel';
import { useServerQuestion } from '../../components/useServerQuestion';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorDataOf, storeOrderId } from '../../providers/orders';
import { useSiteSteps } from './useOrderPipeline';

/** The spec's success alert (§8), then what was done in plain words. */
export const RESUBMIT_SUCCESS = 'Re-submit successfully';

export function resubmitMessage(result: RerunResult): string {
  const done = result.ran.map(labelOf).join(', ');
  const skipped = result.skipped.length ? ` Skipped: ${result.skipped.map((s) => labelOf(s.step)).join(', ')} (see below).` : '';
  return `${RESUBMIT_SUCCESS}: ${done ? `done now: ${done}.` : 'nothing was run.'}${skipped}`;
}

const FLAGS: ReadonlyArray<[keyof RerunFlags, string]> = [
  ['addToAdestra', 'Add to Adestra'],
  ['addToRaisersEdge', "Add to Raiser's Edge"],
  ['sendEcard', 'Send e-card'],
  ['sendToHP', 'Send to HP'],
];

const LABELS: Readonly<Record<string, string>> = Object.fromEntries(FLAGS);
/** The business's name of a step of an order (the Re-run flags, the pipeline panel's rows). */
export const stepLabel = (step: string) => LABELS[step] ?? step;
const labelOf = stepLabel;

/** A server from before failed steps were reported answers without `failed`. */
const failedOf = (result: RerunResult) => result.failed ?? [];

/** Error when a step stopped; warning when every failure is tried again by itself; info when something was skipped. */
function severityOf(result: RerunResult): 'success' | 'info' | 'warning' | 'error' {
  const failed = failedOf(result);
  if (failed.some((f) => !f.retrying)) return 'error';
  if (failed.length) return 'warning';
  return result.skipped.length ? 'info' : 'success';
}

const NONE: RerunFlags = { addToAdestra: false, addToRaisersEdge: false, sendEcard: false, sendToHP: false };

/** Re-runs chosen steps of an order: those of its site's pipeline (CRM, email platform, e-card) and the provider send. */
export function RerunPanel({ order, onDone }: { order: OrderRecord; onDone: () => void }) {
  const orderId = storeOrderId(order);
  const siteSteps = useSiteSteps(order);
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [flags, setFlags] = useState<RerunFlags>(NONE);
  const [errorData, setErrorData] = useState<unknown>(undefined);
  // A shipped order sent to HP again is printed and posted again: the server asks first.
  const question = useServerQuestion('Send to HP again?', 'Send to HP');
  const actionKey = useActionKey();
  const rerun = useMutation({
    mutationFn: (clickKey: string) => question.withQuestion((answers, key) => dataProvider.rerunOrder(orderId, flags, answers, key), clickKey),
    onSettled: actionKey.end,
    onMutate: () => setErrorData(undefined),
    onSuccess: (result) => {
      if (!result) return; // signed out meanwhile (401)
      const failed = failedOf(result);
      if (failed.length) notify(`Re-submit failed: ${failed.map((f) => labelOf(f.step)).join(', ')}`, { type: 'warning', autoHideDuration: 10_000 });
      else notify(resubmitMessage(result), { type: result.skipped.length ? 'info' : 'success' });
      onDone();
    },
    onError: (error) => {
      notify(errorMessage(error), { type: 'error', autoHideDuration: 10_000 });
      setErrorData(errorDataOf(error));
    },
  });
  const result: RerunResult | undefined = rerun.data;
  const chosen = Object.values(flags).some(Boolean);
  return (
    <Box component="section" aria-label="Re-run order" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      {question.dialog}
      <Typography variant="subtitle1" component="h2">
        Re-run this order
      </Typography>
      <FormGroup row>
        {FLAGS.filter(([key]) => key === 'sendToHP' || siteSteps.has(key)).map(([key, label]) => (
          <FormControlLabel
            key={key}
            label={label}
            control={<Checkbox checked={flags[key]} onChange={(e) => setFlags((f) => ({ ...f, [key]: e.target.checked }))} />}
          />
        ))}
      </FormGroup>
      <Button
        variant="contained"
        startIcon={rerun.isPending ? <CircularProgress size={16} /> : <ReplayIcon />}
        disabled={!chosen || rerun.isPending}
        onClick={() => rerun.mutate(actionKey.begin())}
        sx={{ mt: 1 }}
      >
        Re-submit
      </Button>
      {result && (result.ran.length > 0 || result.skipped.length > 0 || failedOf(result).length > 0) ? (
        <Alert severity={severityOf(result)} sx={{ mt: 2 }}>
          {result.ran.length ? <div>Done: {result.ran.map(labelOf).join(', ')}</div> : null}
          {failedOf(result).map((f, i) => (
            <div key={`${f.step}-${i}`}>
              Failed {labelOf(f.step)}: {f.error}
              {f.retrying ? ' (tried again automatically)' : ''}
            </div>
          ))}
          {result.skipped.map((s) => (
            <div key={s.step}>
              Skipped {labelOf(s.step)}: {s.reason}
            </div>
          ))}
        </Alert>
      ) : null}
      <ErrorDataPanel data={errorData} onClose={() => setErrorData(undefined)} />
    </Box>
  );
}
