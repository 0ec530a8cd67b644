// Reprint asks why (the reasons of common/api/reprints) and who is responsible before a printed job
// goes back to the queue; Other needs a few words. Print History's Reprint and the bulk Reprint use it.
import { useState } from 'react';
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import {
  REPRINT_NOTE_MAX,
  REPRINT_REASONS,
  REPRINT_REASON_LABELS,
  REPRINT_RESPONSIBLES,
  REPRINT_RESPONSIBLE_LABELS,
  type ReprintReason,
  type ReprintResponsible,
  type ReprintWhy,
} from '../../../../common/api/reprints';

export interface ReprintDialogProps {
  open: boolean;
  /** "Reprint Birthday card (#12)", "Reprint 3 jobs". */
  title: string;
  busy?: boolean;
  onConfirm: (why: ReprintWhy) => void;
  onClose: () => void;
}

export function ReprintDialog({ open, title, busy = false, onConfirm, onClose }: ReprintDialogProps) {
  const [reason, setReason] = useState<ReprintReason | ''>('');
  const [responsible, setResponsible] = useState<ReprintResponsible | ''>('');
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const noteNeeded = reason === 'other' && note.trim() === '';
  const noteFits = note.length <= REPRINT_NOTE_MAX;

  const confirm = () => {
    setTried(true);
    if (reason === '' || responsible === '' || noteNeeded || !noteFits) return;
    onConfirm({ reprintReason: reason, reprintResponsible: responsible, ...(note.trim() ? { reprintNote: note.trim() } : {}) });
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="reprint-dialog-title" fullWidth maxWidth="sm">
      <DialogTitle id="reprint-dialog-title">{title}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <FormControl error={tried && reason === ''} required>
          <FormLabel id="reprint-reason-label">Why is it reprinted?</FormLabel>
          <RadioGroup aria-labelledby="reprint-reason-label" name="reprintReason" value={reason} onChange={(e) => setReason(e.target.value as ReprintReason)} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {REPRINT_REASONS.map((r) => (
              <FormControlLabel key={r} value={r} control={<Radio size="small" />} label={REPRINT_REASON_LABELS[r]} />
            ))}
          </RadioGroup>
        </FormControl>
        <TextField
          label={reason === 'other' ? 'What happened' : 'Note (optional)'}
          required={reason === 'other'}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          multiline
          minRows={2}
          error={(tried && noteNeeded) || !noteFits}
          helperText={tried && noteNeeded ? 'Say what happened: it is required for Other.' : `${note.length}/${REPRINT_NOTE_MAX}`}
          slotProps={{ htmlInput: { maxLength: REPRINT_NOTE_MAX } }}
        />
        <FormControl error={tried && responsible === ''} required>
          <FormLabel id="reprint-responsible-label">Who is responsible?</FormLabel>
          <RadioGroup row aria-labelledby="reprint-responsible-label" name="reprintResponsible" value={responsible} onChange={(e) => setResponsible(e.target.value as ReprintResponsible)}>
            {REPRINT_RESPONSIBLES.map((r) => (
              <FormControlLabel key={r} value={r} control={<Radio size="small" />} label={REPRINT_RESPONSIBLE_LABELS[r]} />
            ))}
          </RadioGroup>
        </FormControl>
        {tried && (reason === '' || responsible === '') ? (
          <FormLabel error role="alert">
            Choose {[reason === '' ? 'a reason' : '', responsible === '' ? 'who is responsible' : ''].filter(Boolean).join(' and ')}.
          </FormLabel>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={confirm} disabled={busy} startIcon={busy ? <CircularProgress size={16} /> : undefined}>
          Confirm
        </Button>
      </DialogActions>
    </Dialog>
  );
}
