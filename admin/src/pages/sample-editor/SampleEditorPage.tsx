import { useEffect, useMemo, useRef } from 'react';
import { Title, useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Box, Card, CircularProgress, Typography } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { getToken } from '../../providers/session';
import { isPingFromFrame, sampleFrameTarget, tokenMessage } from './sampleProtocol';

/** Frames the sample editor and answers its ping with the sign-in token, to its exact origin only. */
function SampleEditorView() {
  usePageTitle('Sample Editor');
  const dataProvider = useDataProvider<AppDataProvider>();
  const config = useQuery({ queryKey: ['app-config'], queryFn: () => dataProvider.getAppConfig(), staleTime: Infinity, retry: false });
  const target = useMemo(
    () => (config.data ? sampleFrameTarget(config.data.sampleEditorUrl, window.location.origin) : null),
    [config.data],
  );
  const frameRef = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    if (!target) return;
    const onMessage = (event: MessageEvent) => {
      const frameWindow = frameRef.current?.contentWindow;
      if (!frameWindow || !isPingFromFrame(event, { origin: target.origin, window: frameWindow })) return;
      const token = getToken();
      if (token) frameWindow.postMessage(tokenMessage(token), target.origin);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [target]);

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Sample Editor" />
      <Box sx={{ px: 3, pt: 2, pb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          Sample editor
        </Typography>
        <Typography color="text.secondary">The design editor on a sample card, in a frame that signs in through a cross-window message. Nothing here is saved.</Typography>
      </Box>
      {config.isPending ? (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', gap: 1, py: 6 }}>
          <CircularProgress size={20} />
          <Typography color="text.secondary">Loading...</Typography>
        </Box>
      ) : config.isError || !target ? (
        <Typography color="error" role="alert" sx={{ p: 2 }}>
          {config.isError ? errorMessage(config.error) : 'The sample editor address is not set up correctly'}
        </Typography>
      ) : (
        <iframe
          ref={frameRef}
          src={target.src}
          title="Sample editor"
          style={{ display: 'block', width: '100%', height: 'calc(100vh - 200px)', minHeight: 520, border: 0, borderTop: '1px solid rgba(0, 0, 0, 0.12)' }}
        />
      )}
    </Card>
  );
}

/** /sample-editor: signed-in users only (others go to the login page and come back). */
export function SampleEditorPage() {
  return (
    <RequireAccess resource="sample-editor" action="list">
      <SampleEditorView />
    </RequireAccess>
  );
}

export default SampleEditorPage;
