import { useState, type KeyboardEvent } from 'react';
import { useDataProvider } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Box, InputAdornment, TextField } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import type { Id } from '../../../../common/api/envelope';
import { PRODUCTION_NOTE_MAX, type PrintJob } from '../../../../common/api/printProduction';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

/** The job's production note, edited in place; saved on blur or Enter when it changed (Shift+Enter: a new line). */
export function ProductionNoteField({ job }: { job: PrintJob }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const serverNote = job.productionNote?.note ?? '';
  const [value, setValue] = useState(serverNote);
  const [saved, setSaved] = useState<{ id?: Id; note: string }>({ id: job.productionNote?.id, note: serverNote });
  const [justSaved, setJustSaved] = useState(false);
  const [focused, setFocused] = useState(false);

  // A reload brings the server's note; take it unless the user has typed something else.
  const [lastServerNote, setLastServerNote] = useState(serverNote);
  if (serverNote !== lastServerNote) {
    setLastServerNote(serverNote);
    if (value === saved.note) setValue(serverNote);
    setSaved({ id: job.productionNote?.id ?? saved.id, note: serverNote });
  }

  const actionKey = useActionKey();
  const save = useMutation({
    // The first note of a job creates a record: a keyed save can't create two on a repeat (Enter then blur).
    mutationFn: ({ note, idempotencyKey }: { note: string; idempotencyKey: string }) => dataProvider.saveProductionNote({ id: saved.id, jobId: job.id, note, idempotencyKey }),
    onSettled: actionKey.end,
    onSuccess: (note) => {
      setSaved({ id: note.id, note: note.note });
      setJustSaved(true);
    },
  });

  const commit = () => {
    if (save.isPending || value === saved.note) return;
    setJustSaved(false);
    save.mutate({ note: value, idempotencyKey: actionKey.begin() });
  };

  // Enter saves; Shift+Enter starts a new line.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      commit();
    }
  };

  const status = save.isPending ? 'Saving…' : save.isError ? errorMessage(save.error) : justSaved && value === saved.note ? 'Saved' : ' ';
  // The limit is shown while typing (and near it), before the field stops taking characters.
  const showCount = focused || value.length >= PRODUCTION_NOTE_MAX * 0.9;
  const helperText = (
    <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
      <span>{status}</span>
      {showCount ? (
        <Box component="span" data-testid="note-count" sx={{ color: value.length >= PRODUCTION_NOTE_MAX ? 'warning.main' : 'text.secondary', whiteSpace: 'nowrap' }}>
          {value.length}/{PRODUCTION_NOTE_MAX}
        </Box>
      ) : null}
    </Box>
  );

  return (
    <TextField
      value={value}
      onChange={(e) => {
        setValue(e.target.value);
        setJustSaved(false);
      }}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        commit();
      }}
      onKeyDown={onKeyDown}
      size="small"
      fullWidth
      multiline
      maxRows={4}
      placeholder="Add a note"
      error={save.isError}
      helperText={helperText}
      slotProps={{
        htmlInput: { 'aria-label': `Production note for ${job.productName ?? `job ${job.id}`}`, maxLength: PRODUCTION_NOTE_MAX },
        input: {
          endAdornment:
            justSaved && value === saved.note && !save.isPending ? (
              <InputAdornment position="end">
                <CheckIcon fontSize="small" color="success" aria-label="Note saved" />
              </InputAdornment>
            ) : undefined,
        },
        formHelperText: { sx: { mx: 0, color: save.isError ? 'error.main' : justSaved ? 'success.main' : undefined } },
      }}
    />
  );
}
