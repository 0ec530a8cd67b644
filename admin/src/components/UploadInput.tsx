import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useDataProvider, useInput, useNotify } from 'react-admin';
import { Box, Button, CircularProgress, TextField } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import { errorMessage } from '../lib/format';
import type { AppDataProvider } from '../providers/dataProvider';

export interface UploadInputProps {
  source: string;
  /** Where the upload goes (the presigned-URL flow's folder). */
  folder: string;
  label: string;
  buttonLabel: string;
  /** The file picker's filter, e.g. "image/*". */
  accept: string;
  /** The type the upload is sent as, when the file's own may be wrong (a PDF named oddly). */
  contentType?: string;
  testId: string;
  disabled?: boolean;
  /** What follows the field for its value (a preview, a link). */
  after?: (value: string) => ReactNode;
}

/** A file's address: typed, or filled in by uploading one (presigned URL flow). */
export function UploadInput({ source, folder, label, buttonLabel, accept, contentType, testId, disabled, after }: UploadInputProps) {
  const { field } = useInput({ source });
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const value = typeof field.value === 'string' ? field.value : '';

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploading(true);
    try {
      field.onChange(await dataProvider.uploadFile(file, folder, contentType));
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setUploading(false);
    }
  };

  return (
    <>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <TextField label={label} value={value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur} name={field.name} size="small" fullWidth disabled={disabled} />
        <Button
          variant="outlined"
          onClick={() => fileInput.current?.click()}
          disabled={disabled || uploading}
          startIcon={uploading ? <CircularProgress size={16} /> : <UploadIcon />}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          {buttonLabel}
        </Button>
        <input ref={fileInput} type="file" accept={accept} hidden onChange={upload} data-testid={testId} />
      </Box>
      {value && after ? after(value) : null}
    </>
  );
}
