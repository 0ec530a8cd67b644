import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Typography } from '@mui/material';
import {
  createImageLayer,
  createRectLayer,
  createTextLayer,
  fittedImageSize,
  nudgeOperation,
  type Operation,
  type ReorderTarget,
} from '../../../../common/design-doc/model';
import { DEFAULT_PPI_THRESHOLDS, type PpiThresholds } from '../../../../common/design-doc/resolution';
import type { DesignDocument, Layer } from '../../../../common/design-doc/types';
import { EditorCanvas } from './EditorCanvas';
import { EditorToolbar, SaveButton } from './EditorToolbar';
import { PageThumbnails } from './PageThumbnails';
import { PropertiesPanel } from './PropertiesPanel';
import { loadImage } from './renderPages';
import { useDesignHistory } from './useDesignHistory';

export const IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

export interface DesignEditorAppProps {
  title: string;
  initialDocument: DesignDocument;
  /** Stores a picked image (PNG or JPEG) and resolves to its address. */
  uploadImage: (file: File) => Promise<string>;
  /** Saves the document (reporting progress); without it nothing is saved (the sample). */
  onSave?: (doc: DesignDocument, onProgress: (text: string) => void) => Promise<void>;
  onDirtyChange?: (dirty: boolean) => void;
  /** Every change of the document (to keep a draft of unsaved work). */
  onDocumentChange?: (doc: DesignDocument, dirty: boolean) => void;
  /** The initial document is unsaved work (a restored draft). */
  initiallyDirty?: boolean;
  /** Shown at the end of the toolbar instead of Save (the sample's notice and download). */
  actions?: (doc: DesignDocument, pageIndex: number) => ReactNode;
  /** The design's site's resolution rule (preflight's): the photo warning follows it. */
  ppiThresholds?: PpiThresholds;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'range', 'color', 'file'].includes(type);
}

let nudgeSeq = 0;

/**
 * The design editor: page thumbnails, the page canvas (print geometry, shared renderer), the
 * toolbar and the properties panel, with undo/redo and keyboard shortcuts.
 */
export function DesignEditorApp({
  title,
  initialDocument,
  uploadImage,
  onSave,
  onDirtyChange,
  onDocumentChange,
  initiallyDirty,
  actions,
  ppiThresholds = DEFAULT_PPI_THRESHOLDS,
}: DesignEditorAppProps) {
  const history = useDesignHistory(initialDocument);
  const { doc, apply, undo, redo, commit } = history;
  const [pageIndex, setPageIndex] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [zoom, setZoom] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [savedDoc, setSavedDoc] = useState<DesignDocument | null>(initiallyDirty ? null : initialDocument);
  const [uploading, setUploading] = useState(false);
  const textInputRef = useRef<HTMLTextAreaElement | null>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const pickResolver = useRef<((file: File | null) => void) | null>(null);

  const page = doc.pages[pageIndex] ?? doc.pages[0];
  const selected = page.layers.find((l) => l.id === selectedId) ?? null;
  const saving = progress !== null;
  const busy = saving || uploading;
  const dirty = doc !== savedDoc;

  // The picker closed without a file: the pending pick resolves to null.
  useEffect(() => {
    const input = fileInputRef.current;
    if (!input) return;
    const onCancel = () => {
      pickResolver.current?.(null);
      pickResolver.current = null;
    };
    input.addEventListener('cancel', onCancel);
    return () => input.removeEventListener('cancel', onCancel);
  }, []);

  const latestDirty = useRef<boolean | null>(null);
  useEffect(() => {
    if (latestDirty.current === dirty) return;
    latestDirty.current = dirty;
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);

  useEffect(() => {
    onDocumentChange?.(doc, dirty);
  }, [doc, dirty, onDocumentChange]);

  const run = useCallback((op: Operation, coalesce?: string) => apply(op, coalesce), [apply]);

  /** Opens the file picker; resolves to the chosen file or null. */
  const pickFile = () =>
    new Promise<File | null>((resolve) => {
      pickResolver.current?.(null);
      pickResolver.current = resolve;
      fileInputRef.current?.click();
    });

  const pickImage = async (): Promise<string | null> => {
    const file = await pickFile();
    if (!file) return null;
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setError('Please choose a PNG or JPEG image.');
      return null;
    }
    setUploading(true);
    setError(null);
    try {
      return await uploadImage(file);
    } catch (e) {
      setError(`The image could not be uploaded: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    } finally {
      setUploading(false);
    }
  };

  const addLayer = (at: number, layer: Layer) => {
    run({ type: 'add-layer', page: at, layer });
    setSelectedId(layer.id);
  };

  const onAddText = () => {
    addLayer(pageIndex, createTextLayer(doc.format));
    window.setTimeout(() => textInputRef.current?.select(), 0);
  };
  const onAddRect = () => addLayer(pageIndex, createRectLayer(doc.format));
  const onAddImage = async () => {
    const at = pageIndex;
    const src = await pickImage();
    if (!src) return;
    let size: { width: number; height: number } | undefined;
    try {
      const img = await loadImage(src);
      size = fittedImageSize(doc.format, img.naturalWidth, img.naturalHeight);
    } catch {
      // Drawn (or reported) by the canvas; the layer gets the default size.
    }
    addLayer(at, createImageLayer(doc.format, src, size ?? {}));
  };

  const onDelete = () => {
    if (!selected) return;
    run({ type: 'delete-layer', page: pageIndex, id: selected.id });
    setSelectedId(null);
  };
  const onReorder = (to: ReorderTarget) => selected && run({ type: 'reorder-layer', page: pageIndex, id: selected.id, to });

  const save = async () => {
    if (!onSave || saving) return;
    const snapshot = doc;
    setError(null);
    setNotice(null);
    setProgress('Saving…');
    try {
      await onSave(snapshot, setProgress);
      setSavedDoc(snapshot);
      setNotice('Design saved, with its print artwork.');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setProgress(null);
    }
  };

  // Keyboard: undo/redo, delete, nudge (Shift = 10×), Escape, Ctrl+S.
  const keys = useRef({ selected, pageIndex, doc, save, onDelete });
  keys.current = { selected, pageIndex, doc, save, onDelete };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const k = keys.current;
      if (mod && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void k.save();
        return;
      }
      if (isTyping(event.target)) return;
      if (mod && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        if (event.shiftKey) redo();
        else undo();
        return;
      }
      if (mod && event.key.toLowerCase() === 'y') {
        event.preventDefault();
        redo();
        return;
      }
      if (!k.selected) return;
      if (event.key === 'Delete' || event.key === 'Backspace') {
        event.preventDefault();
        k.onDelete();
        return;
      }
      if (event.key === 'Escape') {
        setSelectedId(null);
        return;
      }
      const op = nudgeOperation(k.doc, k.pageIndex, k.selected.id, event.key, event.shiftKey);
      if (op) {
        event.preventDefault();
        // Holding an arrow key down is one undo step; each fresh press is its own.
        if (!event.repeat) nudgeSeq++;
        run(op, `nudge-${nudgeSeq}`);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo, run]);

  const selectPage = (index: number) => {
    setPageIndex(index);
    setSelectedId(null);
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, bgcolor: 'background.default' }}>
      <EditorToolbar
        title={title}
        onAddText={onAddText}
        onAddImage={() => void onAddImage()}
        onAddRect={onAddRect}
        background={page.background}
        onBackground={(color) => run({ type: 'set-background', page: pageIndex, color }, `bg:${pageIndex}`)}
        hasSelection={Boolean(selected)}
        onDelete={onDelete}
        onReorder={onReorder}
        canUndo={history.canUndo}
        canRedo={history.canRedo}
        onUndo={undo}
        onRedo={redo}
        zoom={zoom}
        onZoom={setZoom}
        busy={busy}
        action={
          actions ? (
            actions(doc, pageIndex)
          ) : onSave ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
              <Typography variant="body2" color={dirty ? 'warning.main' : 'text.secondary'} role="status">
                {progress ?? (dirty ? 'Unsaved changes' : 'All changes saved')}
              </Typography>
              <SaveButton onSave={() => void save()} saving={saving} />
            </Box>
          ) : null
        }
      />
      {error ? (
        <Alert severity="error" onClose={() => setError(null)} sx={{ borderRadius: 0 }}>
          {error}
        </Alert>
      ) : null}
      {notice && !error ? (
        <Alert severity="success" onClose={() => setNotice(null)} sx={{ borderRadius: 0, py: 0 }}>
          {notice}
        </Alert>
      ) : null}
      {uploading ? (
        <Alert severity="info" sx={{ borderRadius: 0, py: 0 }}>
          Uploading the image…
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        <PageThumbnails doc={doc} pageIndex={pageIndex} onSelect={selectPage} />
        <EditorCanvas
          doc={doc}
          pageIndex={pageIndex}
          zoom={zoom}
          selectedId={selected?.id ?? null}
          onSelect={setSelectedId}
          apply={run}
          onEditText={() => window.setTimeout(() => textInputRef.current?.focus(), 0)}
        />
        <PropertiesPanel
          doc={doc}
          pageIndex={pageIndex}
          selected={selected}
          onSelect={setSelectedId}
          apply={run}
          commit={commit}
          pickImage={pickImage}
          textInputRef={textInputRef}
          ppiThresholds={ppiThresholds}
        />
      </Box>
      <input
        ref={fileInputRef}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        hidden
        data-testid="editor-image-input"
        onChange={(event) => {
          const file = event.target.files?.[0] ?? null;
          event.target.value = '';
          pickResolver.current?.(file);
          pickResolver.current = null;
        }}
      />
    </Box>
  );
}
