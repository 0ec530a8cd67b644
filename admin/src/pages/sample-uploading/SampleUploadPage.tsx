import { useRef, useState, type ChangeEvent } from 'react';
import { Title, useDataProvider } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Box, Button, Card, CardContent, CircularProgress, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import { RequireAccess } from '../../components/RequireAccess';
import { errorMessage } from '../../lib/format';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';

/** Demo of the presigned upload: pick an image, upload it, show it from its stored address. */
function SampleUploadView() {
  usePageTitle('Sample Upload');
  const dataProvider = useDataProvider<AppDataProvider>();
  const fileInput = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => dataProvider.uploadFile(file, 'samples'),
    onSuccess: setUrl,
  });

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) upload.mutate(file);
  };

  return (
    <Card sx={{ mt: 2, maxWidth: 720 }}>
      <Title title="Sample Upload" />
      <CardContent>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
          Sample upload
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Uploads an image through a presigned URL and shows it.
        </Typography>
        <Button
          variant="contained"
          onClick={() => fileInput.current?.click()}
          disabled={upload.isPending}
          startIcon={upload.isPending ? <CircularProgress size={16} color="inherit" /> : <UploadIcon />}
        >
          Upload an image
        </Button>
        <input ref={fileInput} type="file" accept="image/*" hidden onChange={onPick} data-testid="sample-file-input" />
        {upload.isError ? (
          <Typography color="error" role="alert" sx={{ mt: 2 }}>
            {errorMessage(upload.error)}
          </Typography>
        ) : null}
        {url ? (
          <Box sx={{ mt: 2 }}>
            <Box
              component="img"
              src={url}
              alt="Uploaded sample"
              sx={{ maxWidth: '100%', maxHeight: 480, display: 'block', border: 1, borderColor: 'divider', borderRadius: 1 }}
            />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1, wordBreak: 'break-all' }}>
              {url}
            </Typography>
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

export function SampleUploadPage() {
  return (
    <RequireAccess resource="sample-uploading" action="list">
      <SampleUploadView />
    </RequireAccess>
  );
}

export default SampleUploadPage;
