import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';
import type { DesignDocument } from '../../../../common/design-doc/types';
import { usePageTitle } from '../../layout/usePageTitle';
import { errorMessage } from '../../lib/format';
import { clearDraft, readDraft, saveDraft } from './editorDraft';
import { DesignEditorApp } from './DesignEditorApp';
import { editorApi, type EditorApi, type EditorDesign } from './editorApi';
import { blankDocumentFor, documentForDesign } from './editorDocument';
import {
  loadAllowedParentOrigins,
  designSavedMessage,
  dirtyMessage,
  parentTargetOrigin,
  readInitMessage,
  readyMessage,
  type InitData,
} from './editorProtocol';
import { progressText, saveDesignWithArtwork } from './saveDesign';

type State =
  | { kind: 'not-framed' }
  | { kind: 'waiting' }
  | { kind: 'loading'; init: InitData }
  | { kind: 'error'; message: string; init?: InitData; design?: EditorDesign }
  | { kind: 'ready'; init: InitData; design: EditorDesign; doc: DesignDocument; imported: boolean; restored?: boolean; saved?: DesignDocument };

function Centered({ children }: { children: ReactNode }) {
  return <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', flexDirection: 'column', gap: 2, p: 3, textAlign: 'center' }}>{children}</Box>;
}

/**
 * /editor — the design editor, framed by the Design screen's Editor tab. It speaks the editor frame
 * protocol: `ready` to the parent at the expected origin, `init` (token, designId, apiBase) accepted
 * only from window.parent at an allowed origin, then `dirty` while there is unsaved work and
 * `design-saved` after a save.
 */
export function EditorPage() {
  usePageTitle('Design Editor');
  // Own origin, plus any configured host origins (fetched once before saying `ready`).
  const [allowed, setAllowed] = useState<string[] | null>(null);
  useEffect(() => {
    let live = true;
    void loadAllowedParentOrigins().then((list) => live && setAllowed(list));
    return () => {
      live = false;
    };
  }, []);
  const parent = typeof window !== 'undefined' && window.parent !== window ? window.parent : null;
  const target = useMemo(() => (allowed ? parentTargetOrigin(allowed) : null), [allowed]);
  const [state, setState] = useState<State>(parent ? { kind: 'waiting' } : { kind: 'not-framed' });
  // The latest init: a later one (a refreshed token) replaces the client without reloading the design.
  const client = useRef<{ init: InitData; api: EditorApi } | null>(null);

  const post = useCallback((message: unknown) => target && parent?.postMessage(message, target), [parent, target]);

  const load = useCallback(async (init: InitData) => {
    setState({ kind: 'loading', init });
    try {
      const design = await client.current!.api.getDesign(init.designId);
      const opened = documentForDesign(design);
      if (!opened.ok) {
        setState({ kind: 'error', message: opened.error, init, design });
        return;
      }
      // Unsaved work left by an earlier load of this editor (a reloaded frame) is offered back.
      const draft = readDraft(init.designId, null);
      setState({ kind: 'ready', init, design, doc: draft ?? opened.doc, imported: opened.imported, restored: Boolean(draft), saved: opened.doc });
    } catch (error) {
      setState({ kind: 'error', message: `The design could not be loaded: ${errorMessage(error)}`, init });
    }
  }, []);

  useEffect(() => {
    if (!parent || !allowed || !target) return;
    const onMessage = (event: MessageEvent) => {
      const init = readInitMessage(event, parent, allowed);
      if (!init) return;
      const previous = client.current;
      client.current = { init, api: editorApi(init.apiBase, init.token) };
      if (!previous || String(previous.init.designId) !== String(init.designId)) void load(init);
    };
    window.addEventListener('message', onMessage);
    // Listening first, then telling the host we are here.
    parent.postMessage(readyMessage(), target);
    return () => window.removeEventListener('message', onMessage);
  }, [parent, allowed, target, load]);

  const onDirtyChange = useCallback((dirty: boolean) => post(dirtyMessage(dirty)), [post]);

  const designId = state.kind === 'ready' ? state.init.designId : null;
  const onDocumentChange = useCallback(
    (doc: DesignDocument, dirty: boolean) => {
      if (designId === null) return;
      if (dirty) saveDraft(designId, null, doc);
      else clearDraft(designId);
    },
    [designId],
  );

  const onSave = useCallback(
    async (doc: DesignDocument, onProgress: (text: string) => void) => {
      const current = client.current;
      if (!current) throw new Error('The editor is not connected to the Design screen');
      await saveDesignWithArtwork(current.api, current.init.designId, doc, (p) => onProgress(progressText(p)));
      post(designSavedMessage(current.init.designId));
    },
    [post],
  );

  const uploadImage = useCallback(async (file: File) => {
    const current = client.current;
    if (!current) throw new Error('The editor is not connected to the Design screen');
    return current.api.upload(file, `designs/${current.init.designId}/images/${file.name}`, file.type as 'image/png' | 'image/jpeg');
  }, []);

  if (state.kind === 'not-framed') {
    return (
      <Centered>
        <Typography variant="h6" component="h1">
          Design editor
        </Typography>
        <Typography color="text.secondary">The design editor opens in the Editor tab of a design.</Typography>
        <Button variant="contained" href="/designs" target="_top">
          Go to Product Designs
        </Button>
      </Centered>
    );
  }
  if (state.kind === 'waiting' || state.kind === 'loading') {
    return (
      <Centered>
        <CircularProgress size={28} />
        <Typography color="text.secondary" role="status">
          {state.kind === 'waiting' ? 'Connecting to the Design screen…' : 'Loading the design…'}
        </Typography>
      </Centered>
    );
  }
  if (state.kind === 'error') {
    const { init, design } = state;
    return (
      <Centered>
        <Alert severity="error" sx={{ maxWidth: 640, textAlign: 'left' }}>
          {state.message}
        </Alert>
        {init && design ? (
          <Button
            variant="outlined"
            onClick={() => setState({ kind: 'ready', init, design, doc: blankDocumentFor(design), imported: false })}
          >
            Start again from a blank design
          </Button>
        ) : init ? (
          <Button variant="outlined" onClick={() => void load(init)}>
            Try again
          </Button>
        ) : null}
      </Centered>
    );
  }
  return (
    <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      {state.restored ? (
        <Alert
          severity="warning"
          sx={{ borderRadius: 0, py: 0 }}
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                clearDraft(state.init.designId);
                setState({ ...state, doc: state.saved ?? state.doc, restored: false });
              }}
            >
              Discard them
            </Button>
          }
        >
          Unsaved changes from before were restored.
        </Alert>
      ) : null}
      {state.imported ? (
        <Alert severity="info" sx={{ borderRadius: 0, py: 0 }}>
          This design had artwork but no editable document: its pages were added as images.
        </Alert>
      ) : null}
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <DesignEditorApp
          key={`${state.init.designId}-${state.restored ? 'draft' : 'saved'}`}
          title={state.design.name}
          initialDocument={state.doc}
          uploadImage={uploadImage}
          onSave={onSave}
          onDirtyChange={onDirtyChange}
          onDocumentChange={onDocumentChange}
          initiallyDirty={Boolean(state.restored)}
          ppiThresholds={state.design.ppiThresholds}
        />
      </Box>
    </Box>
  );
}

export default EditorPage;
