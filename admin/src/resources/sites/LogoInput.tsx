import { useRef, useState, type ChangeEvent } from 'react';
import { useDataProvider, useInput, useNotify } from 'react-admin';
import { Box, Button, CircularProgress, FormHelperText, TextField, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import type { AppDataProvider } from '../../providers/dataProvider';

/** Logo: upload a file (presigned URL flow) or type a URL; the preview shows whichever is set. */
export function LogoInput({ source = 'logo', folder = 'logos' }: { source?: string; folder?: string }) {
  const { field } = useInput({ source });
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [previewBroken, setPreviewBroken] = useState(false);
  const value = typeof field.value === 'string' ? field.value : '';

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploading(true);
    try {
      const url = await dataProvider.uploadFile(file, folder);
      setPreviewBroken(false);
      field.onChange(url);
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setUploading(false);
    }
  };

  return (
    <Box sx={{ width: '100%', maxWidth: 560, my: 1 }}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 0.5 }}>
        Logo
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <TextField
          label="Logo URL"
          value={value}
          onChange={(e) => {
            setPreviewBroken(false);
            field.onChange(e.target.value);
          }}
          onBlur={field.onBlur}
          name={field.name}
          size="small"
          fullWidth
        />
        <Button
          variant="outlined"
          onClick={() => fileInput.current?.click()}
          disabled={uploading}
          startIcon={uploading ? <CircularProgress size={16} /> : <UploadIcon />}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          Upload
        </Button>
        <input ref={fileInput} type="file" accept="image/*" hidden onChange={upload} data-testid="logo-file-input" />
      </Box>
      {value ? (
        <Box sx={{ mt: 1, p: 1, border: 1, borderColor: 'divider', borderRadius: 1, display: 'inline-block', bgcolor: 'background.paper' }}>
          {previewBroken ? (
            <FormHelperText error>The logo could not be loaded from this address</FormHelperText>
          ) : (
            <Box
              component="img"
              src={value}
              alt="Logo preview"
              onError={() => setPreviewBroken(true)}
              sx={{ maxHeight: 80, maxWidth: 240, display: 'block' }}
            />
          )}
        </Box>
      ) : null}
    </Box>
  );
}
