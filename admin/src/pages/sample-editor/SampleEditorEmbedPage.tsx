import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Chip, CircularProgress, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import type { DesignDocument } from '../../../../common/design-doc/types';
import type { User } from '../../../../common/api/sites';
import { usePageTitle } from '../../layout/usePageTitle';
import { errorMessage } from '../../lib/format';
import { api } from '../../providers/api';
import { DesignEditorApp } from '../editor/DesignEditorApp';
import { allowedParentOrigins, parentTargetOrigin } from '../editor/editorProtocol';
import { renderPrintPage } from '../editor/renderPages';
import { pingMessage, readTokenMessage } from './sampleProtocol';
import { sampleCardDocument } from './sampleDocument';

type State = { kind: 'not-framed' } | { kind: 'waiting' } | { kind: 'error'; message: string } | { kind: 'ready'; user: User };

/** A picked image kept in the sample document itself (nothing is uploaded). */
function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read'));
    reader.readAsDataURL(file);
  });
}

function DownloadPageButton({ doc, pageIndex }: { doc: DesignDocument; pageIndex: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await renderPrintPage(doc, pageIndex);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `sample-${doc.pages[pageIndex].name.toLowerCase().replace(/\s+/g, '-')}.png`;
      a.click();
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Chip size="small" label="Sample: not saved" />
      {error ? (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
      <Button size="small" variant="outlined" onClick={() => void download()} disabled={busy} startIcon={busy ? <CircularProgress size={14} /> : <DownloadIcon />}>
        Page PNG (300 dpi)
      </Button>
    </Box>
  );
}

/**
 * /sample-editor-embed, shown in the Sample Editor's frame: pings its parent when ready, accepts the
 * token only from window.parent at its own origin, greets the user and opens the editor on a sample card.
 */
export function SampleEditorEmbedPage() {
  usePageTitle('Sample Editor');
  const allowed = useMemo(() => allowedParentOrigins(), []);
  const parent = typeof window !== 'undefined' && window.parent !== window ? window.parent : null;
  const [state, setState] = useState<State>(parent ? { kind: 'waiting' } : { kind: 'not-framed' });
  const sample = useMemo(() => sampleCardDocument(), []);

  useEffect(() => {
    if (!parent) return;
    let done = false;
    const onMessage = (event: MessageEvent) => {
      const token = readTokenMessage(event, parent, allowed);
      if (!token || done) return;
      done = true;
      api<User>('/api/users/me', { token }).then(
        (user) => setState({ kind: 'ready', user }),
        (error: unknown) => setState({ kind: 'error', message: `You could not be signed in: ${errorMessage(error)}` }),
      );
    };
    window.addEventListener('message', onMessage);
    parent.postMessage(pingMessage(), parentTargetOrigin(allowed));
    return () => window.removeEventListener('message', onMessage);
  }, [parent, allowed]);

  if (state.kind !== 'ready') {
    return (
      <Box sx={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', flexDirection: 'column', gap: 2, p: 3, textAlign: 'center' }}>
        {state.kind === 'waiting' ? <CircularProgress size={28} /> : null}
        <Typography color={state.kind === 'error' ? 'error' : 'text.secondary'} role={state.kind === 'error' ? 'alert' : 'status'}>
          {state.kind === 'waiting'
            ? 'Signing in…'
            : state.kind === 'error'
              ? state.message
              : 'The sample editor opens inside the Sample Editor screen.'}
        </Typography>
      </Box>
    );
  }
  return (
    <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
          Hello, {state.user.firstName}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Try the design editor on this sample card: add text and pictures, mark a personalisation field, undo and redo.
        </Typography>
      </Box>
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <DesignEditorApp
          title="Sample card"
          initialDocument={sample}
          uploadImage={readAsDataUrl}
          actions={(doc, pageIndex) => <DownloadPageButton doc={doc} pageIndex={pageIndex} />}
        />
      </Box>
    </Box>
  );
}

export default SampleEditorEmbedPage;
