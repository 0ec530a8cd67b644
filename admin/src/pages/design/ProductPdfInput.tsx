import { useRef, useState, type ChangeEvent } from 'react';
import { useDataProvider, useInput, useNotify } from 'react-admin';
import { Box, Button, CircularProgress, Link, TextField } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

/** The product PDF: upload one (the same presigned-URL flow as site logos) or type its address. */
export function ProductPdfInput({ disabled }: { disabled?: boolean }) {
  const { field } = useInput({ source: 'productPdf' });
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
      field.onChange(await dataProvider.uploadFile(file, 'designs', 'application/pdf'));
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setUploading(false);
    }
  };

  return (
    <Box sx={{ width: '100%', my: 1 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <TextField
          label="Product PDF"
          value={value}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
          name={field.name}
          size="small"
          fullWidth
          disabled={disabled}
        />
        <Button
          variant="outlined"
          onClick={() => fileInput.current?.click()}
          disabled={disabled || uploading}
          startIcon={uploading ? <CircularProgress size={16} /> : <UploadIcon />}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        >
          Upload PDF
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept="application/pdf,.pdf"
          hidden
          onChange={upload}
          data-testid="product-pdf-file-input"
        />
      </Box>
      {value ? (
        <Link href={value} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ display: 'inline-block', mt: 0.5 }}>
          Open the product PDF
        </Link>
      ) : null}
    </Box>
  );
}
