import { useEffect, useMemo, useRef, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Box, Button, CircularProgress, GlobalStyles, Typography } from '@mui/material';
import CloseFullscreenIcon from '@mui/icons-material/CloseFullscreen';
import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import type { Id } from '../../../../common/api/envelope';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { editorFrameTarget } from './editorFrameProtocol';
import { useEditorFrame, type EditorFrameHandlers } from './useEditorFrame';

export interface DesignEditorProps extends EditorFrameHandlers {
  designId: Id;
  /** Passed on to the editor as `onDemand=1` (the Design screen's optional parameter). */
  onDemand?: boolean;
}

/** The external design editor in a frame, in the page or expanded over the whole window. */
export function DesignEditor({ designId, onDemand, onDirtyChange, onDesignSaved }: DesignEditorProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const config = useQuery({
    queryKey: ['app-config'],
    queryFn: () => dataProvider.getAppConfig(),
    staleTime: Infinity,
    retry: false,
  });
  const target = useMemo(
    () =>
      config.data
        ? editorFrameTarget(config.data.editorUrl, designId, window.location.origin, onDemand ? { onDemand: '1' } : {})
        : null,
    [config.data, designId, onDemand],
  );
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [expanded, setExpanded] = useState(false);
  useEditorFrame(frameRef, target?.origin ?? null, designId, { onDirtyChange, onDesignSaved });

  useEffect(() => {
    if (!expanded) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setExpanded(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [expanded]);

  if (config.isPending) {
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', gap: 1, py: 6 }}>
        <CircularProgress size={20} />
        <Typography color="text.secondary">Loading...</Typography>
      </Box>
    );
  }
  if (config.isError || !target) {
    return (
      <Typography color="error" role="alert" sx={{ p: 2 }}>
        {config.isError ? errorMessage(config.error) : 'The design editor address is not set up correctly'}
      </Typography>
    );
  }

  // The frame keeps its place in the tree when expanding, so the editor never reloads (no lost work).
  return (
    <Box
      data-testid="design-editor"
      data-expanded={expanded}
      sx={
        expanded
          ? { position: 'fixed', inset: 0, zIndex: (theme) => theme.zIndex.modal, bgcolor: 'background.paper', display: 'flex', flexDirection: 'column' }
          : { display: 'flex', flexDirection: 'column', height: 'calc(100vh - 230px)', minHeight: 480 }
      }
    >
      {expanded ? (
        // react-admin's content area is a stacking context (z-index 2) below the app bar; lift it
        // while expanded so the editor covers the whole window, and stop the page behind from scrolling.
        <GlobalStyles styles={{ '.RaLayout-content': { zIndex: 'auto !important' }, body: { overflow: 'hidden' } }} />
      ) : null}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 0.5 }}>
        <Button
          size="small"
          onClick={() => setExpanded((e) => !e)}
          startIcon={expanded ? <CloseFullscreenIcon /> : <OpenInFullIcon />}
        >
          {expanded ? 'Minimise' : 'Expand'}
        </Button>
      </Box>
      <iframe
        ref={frameRef}
        src={target.src}
        title="Design editor"
        allow="clipboard-read; clipboard-write"
        style={{ flex: 1, width: '100%', border: 0, borderTop: '1px solid rgba(0, 0, 0, 0.12)', background: '#fafafa' }}
      />
    </Box>
  );
}
