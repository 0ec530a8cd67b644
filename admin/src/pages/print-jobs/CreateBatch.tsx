// Create batch, a bulk action of the Jobs queue: the ticked jobs become one open batch on a press
// sheet (the best fit, or one named), then its page opens. The server's refusal (mixed sizes, a job
// held, printed or in open batch N) is shown as the server wrote it.
import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, LinearProgress, Radio, RadioGroup, Typography } from '@mui/material';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import { MAX_BATCH_JOBS, type ImpositionSheets } from '../../../../common/api/batches';
import type { Id } from '../../../../common/api/envelope';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

/** Best fit: no sheet sent, the server picks the one that holds the most items. */
const BEST_FIT = '';

const jobsText = (n: number) => `${n} job${n === 1 ? '' : 's'}`;

function CreateBatchDialog({ ids, onClose }: { ids: Id[]; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const action = useActionKey();
  const [sheets, setSheets] = useState<ImpositionSheets | null>(null);
  const [sheetsError, setSheetsError] = useState<string | null>(null);
  const [sheet, setSheet] = useState(BEST_FIT);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const tooMany = ids.length > MAX_BATCH_JOBS;

  useEffect(() => {
    let live = true;
    dataProvider.getImpositionSheets().then(
      (answer) => live && setSheets(answer),
      (error: unknown) => live && setSheetsError(errorMessage(error)),
    );
    return () => {
      live = false;
    };
  }, [dataProvider]);

  async function create() {
    setBusy(true);
    setRefusal(null);
    try {
      const batch = await dataProvider.createBatch(sheet === BEST_FIT ? { jobIds: ids } : { jobIds: ids, sheet }, action.begin());
      action.end();
      if (batch?.id === undefined) return; // signed out meanwhile (401)
      navigate(`/batches/${batch.id}`);
    } catch (error) {
      // A refusal is an answer: the next try is a new action.
      action.end();
      setRefusal(errorMessage(error));
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="create-batch-title" fullWidth maxWidth="xs">
      <DialogTitle id="create-batch-title">Create a batch of {jobsText(ids.length)}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          The jobs are printed together on press sheets, in the queue&apos;s order. They must be the same product and size.
        </Typography>
        <Typography id="create-batch-sheet" variant="subtitle2" sx={{ mt: 1 }}>
          Sheet
        </Typography>
        <RadioGroup aria-labelledby="create-batch-sheet" value={sheet} onChange={(e) => setSheet(e.target.value)}>
          <FormControlLabel value={BEST_FIT} control={<Radio size="small" />} label="Best fit (the sheet that holds the most)" disabled={busy} />
          {(sheets?.sheets ?? []).map((s) => (
            <FormControlLabel key={s.name} value={s.name} control={<Radio size="small" />} label={`${s.name} (${s.widthMm} × ${s.heightMm} mm)`} disabled={busy} />
          ))}
        </RadioGroup>
        {sheetsError ? (
          <Alert severity="warning" sx={{ mt: 1 }}>
            The named sheets could not be read ({sheetsError}); Best fit still works.
          </Alert>
        ) : null}
        {tooMany ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            A batch takes at most {MAX_BATCH_JOBS} jobs: {ids.length} are selected.
          </Alert>
        ) : null}
        {refusal ? (
          <Alert severity="error" sx={{ mt: 1 }} role="alert">
            {refusal}
          </Alert>
        ) : null}
        {busy ? <LinearProgress sx={{ mt: 2 }} aria-label="Creating the batch" /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void create()} disabled={busy || tooMany || ids.length === 0}>
          Create batch
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The toolbar's Create batch button and its dialog. */
export function CreateBatchButton({ ids, disabled }: { ids: Id[]; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<ViewModuleIcon />} disabled={disabled} onClick={() => setOpen(true)}>
        Create batch
      </Button>
      {open ? <CreateBatchDialog ids={ids} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
