import { useState } from 'react';
import { Box, FormHelperText, Typography } from '@mui/material';
import { UploadInput } from '../../components/UploadInput';

/** Logo: upload a file (presigned URL flow) or type a URL; the preview shows whichever is set. */
export function LogoInput({ source = 'logo', folder = 'logos' }: { source?: string; folder?: string }) {
  // The address whose image did not load: another address is tried afresh.
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  return (
    <Box sx={{ width: '100%', maxWidth: 560, my: 1 }}>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 0.5 }}>
        Logo
      </Typography>
      <UploadInput
        source={source}
        folder={folder}
        label="Logo URL"
        buttonLabel="Upload"
        accept="image/*"
        testId="logo-file-input"
        after={(value) => (
          <Box sx={{ mt: 1, p: 1, border: 1, borderColor: 'divider', borderRadius: 1, display: 'inline-block', bgcolor: 'background.paper' }}>
            {brokenUrl === value ? (
              <FormHelperText error>The logo could not be loaded from this address</FormHelperText>
            ) : (
              <Box component="img" src={value} alt="Logo preview" onError={() => setBrokenUrl(value)} sx={{ maxHeight: 80, maxWidth: 240, display: 'block' }} />
            )}
          </Box>
        )}
      />
    </Box>
  );
}
