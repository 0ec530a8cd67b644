import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Confirm, Title, useDataProvider, usePermissions } from 'react-admin';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  LinearProgress,
  Link,
  Stack,
  Step,
  StepLabel,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { BATCH_STATES, batchPdfFileName, type Batch, type BatchJob, type BatchSheetsProgress, type BatchState } from '../../../../common/api/batches';
import type { Role } from '../../../../common/api/sites';
import { FactList } from '../../components/FactList';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { newActionKey, useActionKey } from '../../lib/actionKey';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/format';
import { useSmallScreen } from '../../lib/useViewport';
import { ApiError } from '../../providers/api';
import type { AppDataProvider } from '../../providers/dataProvider';
import { BulkOutcomeAlert, type BulkOutcome } from '../print-jobs/BulkOutcome';
import { bulkSummary } from '../print-jobs/bulkSummary';
import { batchTitle, fillingText, jobStateText, NEXT_MOVE, orderText, sheetCountText, sheetsProgressText, STATE_LABELS, whoWhen } from './batchText';

/** How often the page asks how far the sheets are. */
const PROGRESS_EVERY_MS = 500;

/** Who made each move the batch has made: the server reads every move from the batch's history. */
function moveCaption(batch: Batch, state: BatchState): string | null {
  const reached = BATCH_STATES.indexOf(state) <= BATCH_STATES.indexOf(batch.state);
  if (!reached) return null;
  if (state === 'open') return `Created ${whoWhen(batch.createdByName, batch.createdAt)}`;
  const move = batch.moves?.find((m) => m.state === state);
  if (move) return whoWhen(move.byName, move.at);
  // A move older than the history (or an older server): only the batch's last move has its author.
  return state === batch.state ? whoWhen(batch.stateChangedByName, batch.stateChangedAt) : 'Done';
}

function BatchStepper({ batch }: { batch: Batch }) {
  const small = useSmallScreen();
  return (
    <Stepper activeStep={BATCH_STATES.indexOf(batch.state) + 1} orientation={small ? 'vertical' : 'horizontal'} alternativeLabel={!small} aria-label="Where the batch is" sx={{ my: 2 }}>
      {BATCH_STATES.map((state) => {
        const caption = moveCaption(batch, state);
        return (
          <Step key={state} data-testid={`step-${state}`}>
            <StepLabel optional={caption ? <Typography variant="caption">{caption}</Typography> : undefined}>{STATE_LABELS[state]}</StepLabel>
          </Step>
        );
      })}
    </Stepper>
  );
}

/** The batch's cover barcode (PB-<number>), as the scan station and the cover read it. */
function BatchBarcode({ batch }: { batch: Batch }) {
  if (!batch.barcodeSvg || !batch.code) return null;
  return (
    <Box
      component="img"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(batch.barcodeSvg)}`}
      alt={`Barcode ${batch.code}`}
      data-testid="batch-barcode"
      sx={{ display: 'block', height: 56, width: 'auto', maxWidth: '100%', bgcolor: 'common.white', p: 0.5 }}
    />
  );
}

function Facts({ batch, showSite }: { batch: Batch; showSite: boolean }) {
  const packed = batch.state === 'packed' ? (batch.moves?.find((m) => m.state === 'packed') ?? { byName: batch.stateChangedByName, at: batch.stateChangedAt }) : null;
  const facts: Array<[string, ReactNode]> = [
    ['Product', batch.item?.productType ?? 'No jobs left'],
    ['Item size', batch.item ? `${batch.item.trimWidthMm} × ${batch.item.trimHeightMm} mm, ${batch.item.bleedMm} mm bleed` : ''],
    ['Sheet', batch.sheet],
    ['Sheets', sheetCountText(batch.sheetCount)],
    ['How to print', batch.howToPrint ?? ''],
    ['Jobs', String(batch.jobIds.length)],
  ];
  if (packed) facts.push(['Packed', whoWhen(packed.byName, packed.at)]);
  if (batch.stock) facts.push(['Stock', batch.stock]);
  if (showSite && batch.siteName) facts.push(['Client', batch.siteName]);
  if (batch.auto !== undefined) facts.push(['Made', batch.auto ? 'Automatically, by the batching rule' : 'By hand, from Jobs']);
  if (batch.closedAt) facts.push(['Closed', [whoWhen(null, batch.closedAt), batch.closeReason].filter(Boolean).join(': ')]);
  if (batch.barcodeSvg) facts.push(['Barcode', <BatchBarcode key="barcode" batch={batch} />]);
  return <FactList rows={facts.filter(([, value]) => value)} />;
}

/** Jobs that left the queue since the batch was made: not on its sheets any more, said loudly. */
function LeftOutWarning({ batch }: { batch: Batch }) {
  const leftOut = batch.leftOut ?? [];
  if (!leftOut.length) return null;
  const many = leftOut.length > 1;
  return (
    <Alert severity="warning" sx={{ mt: 2 }} data-testid="left-out">
      <AlertTitle>{many ? `${leftOut.length} jobs are` : 'One job is'} not on the sheets any more</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {leftOut.map((job) => (
          <li key={job.jobId}>
            #{job.jobId}
            {job.orderName ? ` (${job.orderName})` : ''}, {job.productName}: {job.reason}
          </li>
        ))}
      </Box>
      <Typography variant="body2" sx={{ mt: 1 }}>
        Download sheets makes the sheets without {many ? 'them' : 'it'}, and the cover names {many ? 'them' : 'it'}. Sheets printed before still carry {many ? 'them' : 'it'}: take {many ? 'those items' : 'that item'} out.
      </Typography>
    </Alert>
  );
}

function JobsOfBatch({ jobs, leftOut }: { jobs: BatchJob[]; leftOut: ReadonlySet<BatchJob['jobId']> }) {
  const small = useSmallScreen();
  const offSheets = (entry: BatchJob) => (leftOut.has(entry.jobId) ? <Chip size="small" color="warning" label="Not on the sheets" sx={{ ml: 1 }} /> : null);
  if (small) {
    return (
      <Box component="ul" aria-label="Jobs of the batch" sx={{ display: 'flex', flexDirection: 'column', gap: 1, p: 0, m: 0 }}>
        {jobs.map((entry) => (
          <Card key={entry.jobId} variant="outlined" component="li" data-testid={`batch-job-${entry.jobId}`} sx={{ listStyle: 'none' }}>
            <CardContent sx={{ '&:last-child': { pb: 2 } }}>
              <Typography sx={{ fontWeight: 600 }}>
                #{entry.jobId} {entry.job?.productName ?? ''}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {[orderText(entry), entry.job ? `QTY ${entry.job.quantity}` : null].filter(Boolean).join(' · ')}
              </Typography>
              <Typography variant="body2">
                {jobStateText(entry)}
                {offSheets(entry)}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    );
  }
  return (
    <TableContainer sx={{ contain: 'inline-size' }}>
      <Table size="small" aria-label="Jobs of the batch">
        <TableHead>
          <TableRow>
            {['Job', 'Order', 'Product', 'QTY', 'State'].map((label) => (
              <TableCell key={label} align={label === 'QTY' ? 'right' : undefined} sx={{ fontWeight: 700 }}>
                {label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {jobs.map((entry) => (
            <TableRow key={entry.jobId} data-testid={`batch-job-${entry.jobId}`}>
              <TableCell>#{entry.jobId}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{orderText(entry)}</TableCell>
              <TableCell>{entry.job?.productName ?? ''}</TableCell>
              <TableCell align="right">{entry.job?.quantity ?? ''}</TableCell>
              <TableCell>
                {jobStateText(entry)}
                {offSheets(entry)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function BatchView({ id }: { id: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { permissions } = usePermissions<Role | null>();
  const [batch, setBatch] = useState<Batch | null>(null);
  const [jobs, setJobs] = useState<BatchJob[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [moving, setMoving] = useState(false);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [progress, setProgress] = useState<BatchSheetsProgress | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const action = useActionKey();
  usePageTitle(batch ? batchTitle(batch) : 'Batch');

  const load = useCallback(async () => {
    try {
      const [b, j] = await Promise.all([dataProvider.getBatch(id), dataProvider.getBatchJobs(id)]);
      setBatch(b);
      setJobs(j);
      setLoadError(null);
    } catch (error) {
      setLoadError(errorMessage(error));
    }
  }, [dataProvider, id]);
  useEffect(() => {
    void load();
  }, [load]);

  const next = batch ? NEXT_MOVE[batch.state] : null;

  async function move() {
    if (!batch || !next) return;
    setAsking(false);
    setMoving(true);
    setMoveError(null);
    setOutcome(null);
    try {
      const moved = await dataProvider.moveBatch(batch.id, next.state, action.begin());
      action.end();
      if (moved?.id === undefined) return; // signed out meanwhile (401)
      setBatch(moved);
      const report = moved.printed ?? moved.packed;
      if (report) {
        setOutcome({ severity: report.refused.length ? 'warning' : 'success', text: bulkSummary(moved.printed ? 'markPrinted' : 'markPacked', report), refused: report.refused });
      }
      setJobs(await dataProvider.getBatchJobs(batch.id));
    } catch (error) {
      action.end();
      setMoveError(errorMessage(error));
      // Moved on by someone else meanwhile: show where it is now.
      if (error instanceof ApiError && error.status === 409) await load();
    } finally {
      setMoving(false);
    }
  }

  async function download() {
    if (!batch) return;
    setDownloading(true);
    setProgress(null);
    setDownloadError(null);
    // The server counts the jobs it has placed: asked every half second while the sheets are made.
    const key = newActionKey();
    let polling = true;
    const poll = async () => {
      while (polling) {
        await new Promise((r) => setTimeout(r, PROGRESS_EVERY_MS));
        if (!polling) break;
        const seen = await dataProvider.batchSheetsProgress(batch.id, key).catch(() => null);
        if (polling && seen) setProgress(seen);
      }
    };
    void poll();
    try {
      const blob = await dataProvider.downloadBatchSheets(batch.id, key);
      if (typeof blob?.size !== 'number') return; // signed out meanwhile (401)
      saveBlob(blob, batchPdfFileName(batch.number));
    } catch (error) {
      setDownloadError(`The sheets could not be made: ${errorMessage(error)}`);
      // Jobs that left the queue meanwhile: the page shows them.
      if (error instanceof ApiError && error.status === 409) await load();
    } finally {
      polling = false;
      setDownloading(false);
    }
  }

  if (loadError && !batch) {
    return (
      <Alert severity="error" sx={{ mt: 2 }}>
        {loadError}
      </Alert>
    );
  }
  if (!batch) {
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1, py: 4 }}>
        <CircularProgress size={20} />
        <Typography color="text.secondary">Loading...</Typography>
      </Box>
    );
  }
  const filling = fillingText(batch);
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title={batchTitle(batch)} />
      <CardContent>
        <Link component={RouterLink} to={batch.state === 'open' ? '/batches' : `/batches?state=${batch.state}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1 }}>
          <ArrowBackIcon fontSize="small" /> Batches
        </Link>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography variant="h5" component="h1">
            {batchTitle(batch)}
          </Typography>
          <Chip label={STATE_LABELS[batch.state]} color={batch.state === 'packed' ? 'success' : 'primary'} size="small" />
          {filling ? <Chip label={filling} color="info" variant="outlined" size="small" /> : null}
        </Stack>
        <BatchStepper batch={batch} />
        <Facts batch={batch} showSite={permissions === 'admin'} />
        <LeftOutWarning batch={batch} />
        <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
          {next ? (
            <Button variant="contained" startIcon={moving ? <CircularProgress size={16} color="inherit" /> : <DoneAllIcon />} disabled={moving} onClick={() => (next.state === 'printed' ? setAsking(true) : void move())}>
              {next.button}
            </Button>
          ) : null}
          <Button variant="outlined" startIcon={downloading ? <CircularProgress size={16} /> : <PictureAsPdfIcon />} disabled={downloading} onClick={() => void download()}>
            {downloading ? 'Making the sheets…' : 'Download sheets'}
          </Button>
        </Stack>
        {downloading ? (
          <Box role="status" aria-live="polite" sx={{ mt: 1, maxWidth: 560 }} data-testid="sheets-progress">
            <LinearProgress
              variant={progress ? 'determinate' : 'indeterminate'}
              value={progress && progress.jobs ? Math.round((100 * progress.jobsDone) / progress.jobs) : 0}
              aria-label={`Making ${batchPdfFileName(batch.number)}`}
            />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {sheetsProgressText(progress, batchPdfFileName(batch.number))}
            </Typography>
          </Box>
        ) : null}
        {downloadError ? (
          <Alert severity="error" sx={{ mt: 1 }} onClose={() => setDownloadError(null)}>
            {downloadError}
          </Alert>
        ) : null}
        {moveError ? (
          <Alert severity="error" sx={{ mt: 1 }} onClose={() => setMoveError(null)} data-testid="move-error">
            {moveError}
          </Alert>
        ) : null}
      </CardContent>
      {outcome ? <BulkOutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} /> : null}
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Jobs
        </Typography>
        {loadError ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {loadError}
          </Alert>
        ) : null}
        {jobs ? <JobsOfBatch jobs={jobs} leftOut={new Set((batch.leftOut ?? []).map((j) => j.jobId))} /> : null}
      </CardContent>
      {asking ? (
        <Confirm
          isOpen
          title={`Mark ${batchTitle(batch).toLowerCase()} printed`}
          content={`Each of its ${batch.jobIds.length} job${batch.jobIds.length === 1 ? '' : 's'} is marked printed by you now and leaves the Jobs queue for Print History. A job someone else printed meanwhile is reported, not counted twice.`}
          confirm="Mark printed"
          onConfirm={() => void move()}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </Card>
  );
}

/** /batches/:id: one batch, its moves on the floor, its sheets and its jobs. */
export function BatchPage() {
  const { id = '' } = useParams();
  return (
    <RequireAccess resource="batches" action="show">
      <BatchView key={id} id={id} />
    </RequireAccess>
  );
}

export default BatchPage;
