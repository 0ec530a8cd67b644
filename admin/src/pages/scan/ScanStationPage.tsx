// The scan station (/scan): a packing bench with a USB barcode scanner acting as a keyboard. One
// input always has the focus; the scanner types a copy's code (PJ-<job id>-<copy>) and Enter. Keys
// typed before the input is ready, or while no field has the focus, are the scanner's too: none is
// lost. Each answer is said in big text and colour (printed blue, packed green, refused amber or
// red) inside an aria-live region, with the item, its copies packed, its order's other items and
// where they are; once every copy of every item of the order made here is packed: "Order complete —
// ship" and Mark shipped with the tracking, in sight without scrolling.
import { useCallback, useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { useAuthenticated, useDataProvider } from 'react-admin';
import { Box, Button, Chip, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import type { ScanItem, ScanItemState, ScanOrder, ScanRefusalDetails, ScanResult, ScannedJob } from '../../../../common/api/scan';
import type { StoreFulfilment } from '../../../../common/api/orders';
import { NO_TRACKING, TrackingFields, trackingRefusal, type Tracking } from '../../components/TrackingFields';
import { usePageTitle } from '../../layout/usePageTitle';
import { newActionKey } from '../../lib/actionKey';
import { claimEarlyKeys, isField, isScanKey } from '../../lib/earlyKeys';
import { errorMessage } from '../../lib/format';
import { ApiError } from '../../providers/api';
import type { AppDataProvider } from '../../providers/dataProvider';

export const ORDER_COMPLETE = 'Order complete — ship';

type Tone = 'info' | 'success' | 'warning' | 'error';

/** One answer of the station, as it is shown and kept in the session's list. */
export interface ScanAnswer {
  id: number;
  code: string;
  at: Date;
  tone: Tone;
  headline: string;
  detail: string;
  job: ScannedJob | null;
  order: ScanOrder | null;
  orderComplete: boolean;
}

const copiesOf = (job: Pick<ScannedJob, 'quantity'>) => Math.max(1, job.quantity);

/** "#1024 · 2 of 3", and "copy 2 of 4" of a job of several copies. */
const copyName = (job: ScannedJob) => (copiesOf(job) > 1 && job.copy ? `${job.label} · copy ${job.copy} of ${copiesOf(job)}` : job.label);

/** What the bench says of a successful scan. */
export function answerOf(id: number, code: string, result: ScanResult): ScanAnswer {
  const { job } = result;
  const copies = copiesOf(job);
  const base = { id, code, at: new Date(), job, order: result.order, orderComplete: result.orderComplete };
  if (result.advancedTo === 'printed') {
    const detail = copies > 1 ? `${job.productName} × ${copies}: all ${copies} copies. Scan each copy when it is packed.` : `${job.productName}. Scan it again when it is packed.`;
    return { ...base, tone: 'info', headline: `Printed: ${job.label}`, detail };
  }
  if (result.orderComplete) return { ...base, tone: 'success', headline: ORDER_COMPLETE, detail: `Packed: ${copyName(job)}, ${job.productName}. Every item made here is packed.` };
  return { ...base, tone: 'success', headline: `Packed: ${copyName(job)}`, detail: copies > 1 ? `${job.productName}: ${job.packedCopies} of ${copies} copies packed` : job.productName };
}

/** What the bench says of a refused scan: amber when the item is fine where it is (409), red when the code is wrong. */
export function refusalOf(id: number, code: string, error: unknown): ScanAnswer {
  const details = (error instanceof ApiError && error.body && typeof error.body === 'object' ? (error.body as { details?: ScanRefusalDetails }).details : undefined) ?? {};
  const status = error instanceof ApiError ? error.status : 0;
  const job = details.job ?? null;
  return {
    id,
    code,
    at: new Date(),
    tone: status === 409 ? 'warning' : 'error',
    headline: status === 409 ? 'Nothing changed' : status === 404 ? 'Not found' : status === 400 ? 'Not an item barcode' : 'The scan did not go through',
    detail: errorMessage(error),
    job,
    order: details.order ?? null,
    orderComplete: details.orderComplete ?? false,
  };
}

const STATE_COLOR: Record<ScanItemState, 'default' | 'info' | 'success' | 'warning'> = {
  waiting: 'default',
  held: 'warning',
  printed: 'info',
  packed: 'success',
  'with HP Site Flow': 'default',
  'e-mailed': 'default',
  withdrawn: 'default',
};

const MADE_ELSEWHERE = new Set<ScanItemState>(['with HP Site Flow', 'e-mailed', 'withdrawn']);

/** Where an item is; a printed item of several copies some of which are packed: "2 of 4 packed". */
function StateChip({ state, packedCopies = 0, quantity = 1, size = 'medium' }: { state: ScanItemState; packedCopies?: number; quantity?: number; size?: 'small' | 'medium' }) {
  const partly = state === 'printed' && quantity > 1 && packedCopies > 0;
  return <Chip size={size} label={partly ? `${packedCopies} of ${quantity} packed` : state} color={partly ? 'success' : STATE_COLOR[state]} variant={MADE_ELSEWHERE.has(state) || partly ? 'outlined' : 'filled'} />;
}

/** The big coloured answer, announced to screen readers. */
function AnswerBanner({ answer, shipped }: { answer: ScanAnswer | null; shipped: Shipped | null }) {
  const tone: Tone = shipped?.tone ?? answer?.tone ?? 'info';
  return (
    <Box role="status" aria-live="polite" aria-atomic="true" data-testid="scan-answer" data-tone={answer ? tone : 'idle'}>
      {answer || shipped ? (
        <Paper
          elevation={0}
          sx={{ p: { xs: 2, sm: 3 }, bgcolor: `${tone}.main`, color: `${tone}.contrastText`, borderRadius: 2 }}
        >
          <Typography component="p" sx={{ fontWeight: 800, lineHeight: 1.15, fontSize: { xs: '1.9rem', sm: '3rem' }, overflowWrap: 'anywhere' }}>
            {shipped ? 'Shipped' : answer!.headline}
          </Typography>
          <Typography component="p" sx={{ mt: 1, fontSize: { xs: '1.1rem', sm: '1.5rem' }, overflowWrap: 'anywhere' }}>
            {shipped?.sentence ?? answer!.detail}
          </Typography>
        </Paper>
      ) : (
        <Typography sx={{ fontSize: { xs: '1.2rem', sm: '1.6rem' } }} color="text.secondary">
          Scan an item&apos;s barcode (PJ-, the job and the copy, e.g. PJ-17-2) or type it and press Enter.
        </Typography>
      )}
    </Box>
  );
}

function JobPanel({ job }: { job: ScannedJob }) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid="scan-job">
      {job.previewUrl ? (
        <Box component="img" src={job.previewUrl} alt={`Preview of ${job.productName}`} sx={{ width: { xs: 72, sm: 112 }, height: 'auto', borderRadius: 1, border: 1, borderColor: 'divider', flexShrink: 0 }} />
      ) : null}
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 700, fontSize: { xs: '1.3rem', sm: '1.8rem' }, overflowWrap: 'anywhere' }}>{job.productName}</Typography>
        <Typography sx={{ fontSize: { xs: '1.1rem', sm: '1.4rem' } }}>
          {job.label}
          {job.quantity > 1 ? ` · × ${job.quantity}` : ''}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ mt: 0.5, alignItems: 'center', flexWrap: 'wrap' }}>
          <StateChip state={job.state} packedCopies={job.packedCopies} quantity={job.quantity} />
          {job.batchNumber !== null ? <Typography color="text.secondary">Batch {job.batchNumber}</Typography> : null}
          <Typography color="text.secondary">Job #{job.id}</Typography>
        </Stack>
      </Box>
    </Stack>
  );
}

function OrderItems({ order, scannedJobId }: { order: ScanOrder; scannedJobId: number | null }) {
  return (
    <Box data-testid="scan-order">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          Order {order.name}
        </Typography>
        <Typography color="text.secondary">
          {order.items.length} {order.items.length === 1 ? 'item' : 'items'}
        </Typography>
        {order.shipped ? <Chip color="success" label="shipped" /> : null}
      </Stack>
      <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={`Items of order ${order.name}`}>
        {order.items.map((item: ScanItem) => (
          <Box
            component="li"
            key={`${item.lineId}-${item.jobId}`}
            data-testid={`scan-item-${item.jobId ?? item.lineId}`}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', fontWeight: item.jobId !== null && item.jobId === scannedJobId ? 700 : 400 }}
          >
            <Typography component="span" sx={{ fontSize: '1.1rem', fontWeight: 'inherit', overflowWrap: 'anywhere' }}>
              {item.itemNumber ? `${item.itemNumber}. ` : ''}
              {item.productName}
              {item.quantity > 1 ? ` × ${item.quantity}` : ''}
            </Typography>
            <StateChip state={item.state} packedCopies={item.packedCopies} quantity={item.quantity} size="small" />
          </Box>
        ))}
      </Stack>
    </Box>
  );
}

/** Mark shipped for the items made here (the existing call of Check order), with the tracking. */
function MarkShippedForm({ order, onShipped }: { order: ScanOrder; onShipped: (outcome: StoreFulfilment) => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [tracking, setTracking] = useState<Tracking>(NO_TRACKING);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const lineIds = order.items.filter((i) => i.state === 'packed' && i.lineId).map((i) => i.lineId!);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setProblem(null);
    try {
      const outcome = await dataProvider.markShipped(
        { orderId: order.id, siteId: order.siteId, lineIds, carrier: tracking.carrier, trackingNumber: tracking.trackingNumber, trackingUrl: tracking.trackingUrl.trim() || undefined },
        newActionKey(),
      );
      setErrors({});
      onShipped(outcome);
    } catch (error) {
      const refused = trackingRefusal(error);
      setErrors(refused.errors);
      setProblem(refused.problem);
    } finally {
      setPending(false);
    }
  };
  return (
    <Box component="form" onSubmit={submit} aria-label="Mark shipped" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography variant="h6" component="h2">
        Mark shipped
      </Typography>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1.4fr' } }}>
        <TrackingFields value={tracking} onChange={setTracking} errors={errors} />
      </Box>
      {problem ? (
        <Typography color="error" role="alert">
          {problem}
        </Typography>
      ) : null}
      <Box>
        <Button type="submit" size="large" variant="contained" color="success" disabled={pending} startIcon={pending ? <CircularProgress size={18} /> : <LocalShippingIcon />}>
          Mark shipped
        </Button>
      </Box>
    </Box>
  );
}

/** What Mark shipped did, as the bench says it. */
interface Shipped {
  tone: Tone;
  sentence: string;
}

/** The store's answer to Mark shipped, in a sentence. */
export function shippedSentence(order: ScanOrder, outcome: StoreFulfilment): string {
  const tracking = [outcome.tracking.company, outcome.tracking.number].filter(Boolean).join(' ');
  if (outcome.status === 'sent') return `Order ${order.name} left with ${tracking}; the store has the tracking.`;
  if (outcome.status === 'pending') return `Order ${order.name} left with ${tracking}; the tracking is on its way to the store${outcome.error ? ` (${outcome.error})` : ''}.`;
  return `Order ${order.name} left with ${tracking}, but the store refused the tracking: ${outcome.error ?? 'no reason given'}. Check order shows it.`;
}

const INTERACTIVE = 'input, textarea, select, button, a, label, [role="button"], [role="combobox"], [role="option"]';
const KEEP = 8;

export default function ScanStationPage() {
  // Signed out, the visitor goes to the login page. The station itself is drawn at once, not after
  // the check: a wrapper that mounts it later would lose, or replay, what the scanner typed first.
  useAuthenticated();
  usePageTitle('Scan station');
  const dataProvider = useDataProvider<AppDataProvider>();
  const input = useRef<HTMLInputElement>(null);
  const next = useRef(1);
  const [code, setCodeState] = useState('');
  // The text typed so far, read by key handlers between renders.
  const typedSoFar = useRef('');
  const setCode = useCallback((value: string) => {
    typedSoFar.current = value;
    setCodeState(value);
  }, []);
  const [pending, setPending] = useState(0);
  const [answers, setAnswers] = useState<ScanAnswer[]>([]);
  /** Mark shipped from this bench, by the answer it was offered on: the sentence shown. */
  const [shipped, setShipped] = useState<Record<number, Shipped>>({});
  const refocus = useCallback(() => input.current?.focus(), []);

  useEffect(() => {
    window.addEventListener('focus', refocus);
    return () => window.removeEventListener('focus', refocus);
  }, [refocus]);

  const scan = async (typed: string) => {
    const id = next.current++;
    setPending((n) => n + 1);
    let answer: ScanAnswer;
    try {
      answer = answerOf(id, typed, await dataProvider.scan(typed, newActionKey()));
    } catch (error) {
      answer = refusalOf(id, typed, error);
    }
    setPending((n) => n - 1);
    setAnswers((list) => [answer, ...list].slice(0, KEEP));
    refocus();
  };

  /** The code typed so far is sent (Enter), the input emptied for the next. */
  const sendTyped = () => {
    const typed = typedSoFar.current.trim();
    setCode('');
    refocus();
    if (typed) void scan(typed);
  };
  const sendRef = useRef(sendTyped);
  sendRef.current = sendTyped;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    sendTyped();
  };

  // The scanner's keys from the moment the page showed (kept until now), and any typed while no
  // field has the focus (a button clicked last): they go to the code, Enter sends it.
  useEffect(() => {
    const feed = (text: string) => {
      for (const ch of text) {
        if (ch === '\n') sendRef.current();
        else setCode(typedSoFar.current + ch);
      }
    };
    const { typed, release } = claimEarlyKeys();
    feed(typed);
    const onKey = (event: KeyboardEvent) => {
      if (!isScanKey(event) || isField(document.activeElement)) return;
      event.preventDefault();
      refocus();
      feed(event.key === 'Enter' ? '\n' : event.key);
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      release();
    };
  }, [refocus, setCode]);

  // A click anywhere but a control gives the scanner its input back.
  const onPageClick = (event: MouseEvent) => {
    if (!(event.target as HTMLElement).closest(INTERACTIVE)) refocus();
  };

  const last = answers[0] ?? null;
  const order = last?.order ?? null;
  const shippedNow = last ? (shipped[last.id] ?? null) : null;

  return (
    <Box onClick={onPageClick} sx={{ p: { xs: 1, sm: 2 }, display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 1100, minHeight: '70vh' }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        Scan station
      </Typography>
      <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <TextField
          inputRef={input}
          autoFocus
          fullWidth
          label="Scan or type a code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters', 'aria-describedby': 'scan-help' } }}
          sx={{ '& input': { fontSize: { xs: '1.5rem', sm: '2rem' }, fontFamily: 'monospace', py: { xs: 1.5, sm: 2 } } }}
        />
        {pending > 0 ? <CircularProgress size={32} aria-label="Scanning" /> : null}
      </Box>
      <Typography id="scan-help" variant="body2" color="text.secondary" sx={{ mt: -1.5 }}>
        The first scan of an item marks it printed, the next scan of each copy marks that copy packed. A USB scanner types the code and Enter for you.
      </Typography>

      <AnswerBanner answer={last} shipped={shippedNow} />

      {/* Right under the answer: what the packer does next is in sight without scrolling. */}
      {order && last?.orderComplete && !order.shipped && !shippedNow ? (
        <Paper variant="outlined" sx={{ p: 2, borderColor: 'success.main', borderWidth: 2 }}>
          <MarkShippedForm
            key={order.id}
            order={order}
            onShipped={(outcome) => {
              // The order has left either way; a tracking the store refused is the operator's to see to.
              setShipped((s) => ({ ...s, [last.id]: { tone: outcome.status === 'failed' ? 'warning' : 'success', sentence: shippedSentence(order, outcome) } }));
              refocus();
            }}
          />
        </Paper>
      ) : null}

      {last?.job ? (
        <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
          <JobPanel job={last.job} />
          {order ? <OrderItems order={order} scannedJobId={last.job.id} /> : null}
        </Paper>
      ) : null}

      {answers.length ? (
        <Box>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            Last scans
          </Typography>
          <Stack component="ol" spacing={0.5} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Last scans" data-testid="scan-history">
            {answers.map((a) => (
              <Box component="li" key={a.id} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
                <Box component="span" aria-hidden sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: `${a.tone}.main`, flexShrink: 0, alignSelf: 'center' }} />
                <Typography component="span" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {a.at.toLocaleTimeString('en-GB')}
                </Typography>
                <Typography component="span" sx={{ fontFamily: 'monospace' }}>
                  {a.code}
                </Typography>
                <Typography component="span" sx={{ overflowWrap: 'anywhere' }}>
                  {a.tone === 'warning' || a.tone === 'error' ? a.detail : a.headline}
                </Typography>
              </Box>
            ))}
          </Stack>
        </Box>
      ) : null}
    </Box>
  );
}
