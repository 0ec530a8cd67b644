import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { Box, Typography } from '@mui/material';
import {
  HANDLES,
  resizeByHandle,
  rotationTowards,
  snapLayerPosition,
  snapTargets,
  snapValue,
  type Handle,
  type Operation,
  type SnapTargets,
} from '../../../../common/design-doc/model';
import { formatSpec } from '../../../../common/design-doc/render';
import type { DesignDocument, Layer } from '../../../../common/design-doc/types';
import { renderPageCanvas } from './renderPages';

export interface EditorCanvasProps {
  doc: DesignDocument;
  pageIndex: number;
  /** 1 = the whole page (with bleed) fits the view. */
  zoom: number;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  apply: (op: Operation, coalesce?: string) => void;
  /** Double-click on a text layer: edit its text. */
  onEditText?: (id: string) => void;
}

type Drag =
  | { kind: 'move'; id: string; start: Point; layer: Layer; key: string; targets: SnapTargets }
  | { kind: 'resize'; id: string; handle: Handle; start: Point; layer: Layer; key: string; targets: SnapTargets }
  | { kind: 'rotate'; id: string; start: Point; layer: Layer; key: string };

interface Point {
  x: number;
  y: number;
}

/** Pixels around the page in the view. */
const PADDING = 32;
/** Snapping reaches this many screen pixels. */
const SNAP_PX = 6;
const HANDLE_PX = 9;
const ROTATE_ARM_PX = 22;
const SELECTION = '#ff6d00';

const HANDLE_CURSOR: Record<Handle, string> = {
  n: 'ns-resize',
  s: 'ns-resize',
  e: 'ew-resize',
  w: 'ew-resize',
  ne: 'nesw-resize',
  sw: 'nesw-resize',
  nw: 'nwse-resize',
  se: 'nwse-resize',
};

let dragSeq = 0;

function handlePosition(layer: Layer, handle: Handle): Point {
  const x = handle.includes('w') ? layer.x : handle.includes('e') ? layer.x + layer.width : layer.x + layer.width / 2;
  const y = handle.includes('n') ? layer.y : handle.includes('s') ? layer.y + layer.height : layer.y + layer.height / 2;
  return { x, y };
}

/** The page on real print geometry: bleed (shaded), trim line, safe area; layers to select, move, resize and rotate. */
export function EditorCanvas({ doc, pageIndex, zoom, selectedId, onSelect, apply, onEditText }: EditorCanvasProps) {
  const spec = formatSpec(doc);
  const page = doc.pages[pageIndex];
  const fullW = spec.width + 2 * spec.bleed;
  const fullH = spec.height + 2 * spec.bleed;

  const viewRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const [viewSize, setViewSize] = useState({ width: 800, height: 600 });
  const [guides, setGuides] = useState<{ x: number | null; y: number | null }>({ x: null, y: null });
  const [renderError, setRenderError] = useState<string | null>(null);
  const drag = useRef<Drag | null>(null);

  useLayoutEffect(() => {
    const el = viewRef.current;
    if (!el) return;
    const measure = () => {
      const { width, height } = el.getBoundingClientRect();
      if (width > 0 && height > 0) setViewSize({ width, height });
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const fitScale = Math.max(0.5, Math.min((viewSize.width - 2 * PADDING) / fullW, (viewSize.height - 2 * PADDING) / fullH));
  /** CSS pixels per millimetre. */
  const scale = fitScale * zoom;
  const px = 1 / scale;
  const dpr = typeof window !== 'undefined' ? window.devicePixelRatio || 1 : 1;

  // Draw the page with the shared renderer into an off-screen canvas, then show it: the newest render wins.
  const latestDoc = useRef(doc);
  latestDoc.current = doc;
  useEffect(() => {
    let cancelled = false;
    const dpi = scale * dpr * 25.4;
    renderPageCanvas(latestDoc.current, pageIndex, dpi).then(
      (rendered) => {
        const canvas = canvasRef.current;
        if (cancelled || !rendered || !canvas) return;
        const ctx = canvas.getContext('2d');
        if (!ctx) return;
        if (canvas.width !== rendered.canvas.width || canvas.height !== rendered.canvas.height) {
          canvas.width = rendered.canvas.width;
          canvas.height = rendered.canvas.height;
        }
        ctx.drawImage(rendered.canvas, 0, 0);
        setRenderError(rendered.result.failedImages.length ? `An image could not be loaded: ${rendered.result.failedImages[0].slice(0, 120)}` : null);
      },
      (error: unknown) => !cancelled && setRenderError(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      cancelled = true;
    };
  }, [page, doc.format, doc.bleed, pageIndex, scale, dpr]);

  /** Pointer position in page millimetres (origin: the trim box's top-left). */
  const toMm = (event: { clientX: number; clientY: number }): Point => {
    const rect = svgRef.current!.getBoundingClientRect();
    return { x: (event.clientX - rect.left) / scale - spec.bleed, y: (event.clientY - rect.top) / scale - spec.bleed };
  };

  const startDrag = (event: ReactPointerEvent, next: Drag) => {
    event.stopPropagation();
    event.preventDefault();
    drag.current = next;
    svgRef.current?.setPointerCapture?.(event.pointerId);
  };

  const onLayerPointerDown = (event: ReactPointerEvent, layer: Layer) => {
    if (event.button !== 0) return;
    onSelect(layer.id);
    if (layer.locked) {
      event.stopPropagation();
      return;
    }
    startDrag(event, { kind: 'move', id: layer.id, start: toMm(event), layer, key: `drag-${++dragSeq}`, targets: snapTargets(doc, pageIndex, [layer.id]) });
  };

  const onPointerMove = (event: ReactPointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const p = toMm(event);
    const dx = p.x - d.start.x;
    const dy = p.y - d.start.y;
    const snapping = !event.altKey;
    const tolerance = SNAP_PX / scale;
    if (d.kind === 'move') {
      const moved = { ...d.layer, x: d.layer.x + dx, y: d.layer.y + dy };
      const snapped = snapping ? snapLayerPosition(moved, d.targets, tolerance) : { x: moved.x, y: moved.y, guides: { x: null, y: null } };
      setGuides(snapped.guides);
      apply({ type: 'move-layer', page: pageIndex, id: d.id, x: snapped.x, y: snapped.y }, d.key);
    } else if (d.kind === 'resize') {
      const box = resizeByHandle(d.layer, d.handle, dx, dy, { keepRatio: event.shiftKey });
      const g: { x: number | null; y: number | null } = { x: null, y: null };
      if (snapping && !d.layer.rotation && !event.shiftKey) {
        if (d.handle.includes('e')) {
          const s = snapValue(box.x + box.width, d.targets.x, tolerance);
          box.width = Math.max(1, s.value - box.x);
          g.x = s.guide;
        } else if (d.handle.includes('w')) {
          const right = box.x + box.width;
          const s = snapValue(box.x, d.targets.x, tolerance);
          box.x = Math.min(s.value, right - 1);
          box.width = right - box.x;
          g.x = s.guide;
        }
        if (d.handle.includes('s')) {
          const s = snapValue(box.y + box.height, d.targets.y, tolerance);
          box.height = Math.max(1, s.value - box.y);
          g.y = s.guide;
        } else if (d.handle.includes('n')) {
          const bottom = box.y + box.height;
          const s = snapValue(box.y, d.targets.y, tolerance);
          box.y = Math.min(s.value, bottom - 1);
          box.height = bottom - box.y;
          g.y = s.guide;
        }
      }
      setGuides(g);
      apply({ type: 'resize-layer', page: pageIndex, id: d.id, box }, d.key);
    } else {
      let rotation = rotationTowards(d.layer, p, event.shiftKey ? 15 : undefined);
      // Without Shift, settle on right angles when close to one.
      const right = Math.round(rotation / 90) * 90;
      if (!event.shiftKey && Math.abs(rotation - right) < 4) rotation = right === -180 ? 180 : right;
      apply({ type: 'rotate-layer', page: pageIndex, id: d.id, rotation }, d.key);
    }
  };

  const endDrag = () => {
    drag.current = null;
    setGuides({ x: null, y: null });
  };

  const selected = page?.layers.find((l) => l.id === selectedId) ?? null;
  const stageW = fullW * scale;
  const stageH = fullH * scale;
  const rotateOf = (l: Layer) => (l.rotation ? `rotate(${l.rotation} ${l.x + l.width / 2} ${l.y + l.height / 2})` : undefined);

  return (
    <Box
      ref={viewRef}
      data-testid="editor-canvas-view"
      onPointerDown={() => onSelect(null)}
      sx={{ flex: 1, minWidth: 0, minHeight: 0, overflow: 'auto', bgcolor: '#e9e9ee', position: 'relative', display: 'flex' }}
    >
      <Box sx={{ m: 'auto', p: `${PADDING}px`, flex: 'none' }}>
        <Box sx={{ position: 'relative', width: stageW, height: stageH, boxShadow: 3, bgcolor: page?.background ?? '#fff' }}>
          <canvas
            ref={canvasRef}
            aria-label={`${page?.name ?? 'Page'} of the design`}
            role="img"
            style={{ position: 'absolute', inset: 0, width: stageW, height: stageH, display: 'block' }}
          />
          <svg
            ref={svgRef}
            data-testid="editor-overlay"
            width={stageW}
            height={stageH}
            viewBox={`${-spec.bleed} ${-spec.bleed} ${fullW} ${fullH}`}
            style={{ position: 'absolute', inset: 0, overflow: 'visible', touchAction: 'none' }}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
            onLostPointerCapture={endDrag}
          >
            {/* Bleed: shaded, it is cut off. Trim line (red) and safe area (dashed blue). */}
            <path
              d={`M${-spec.bleed},${-spec.bleed}h${fullW}v${fullH}h${-fullW}z M0,0v${spec.height}h${spec.width}v${-spec.height}z`}
              fill="rgba(30, 30, 60, 0.16)"
              fillRule="evenodd"
              pointerEvents="none"
            />
            <rect x={0} y={0} width={spec.width} height={spec.height} fill="none" stroke="#d32f2f" strokeWidth={px} pointerEvents="none" />
            <rect
              x={spec.safe}
              y={spec.safe}
              width={spec.width - 2 * spec.safe}
              height={spec.height - 2 * spec.safe}
              fill="none"
              stroke="#1976d2"
              strokeWidth={px}
              strokeDasharray={`${5 * px} ${4 * px}`}
              pointerEvents="none"
            />
            {page?.layers.map((layer) => (
              <g key={layer.id} transform={rotateOf(layer)}>
                <rect
                  data-layer-id={layer.id}
                  aria-label={`Layer ${layer.name}`}
                  x={layer.x}
                  y={layer.y}
                  width={layer.width}
                  height={layer.height}
                  fill="transparent"
                  stroke={layer.field ? '#8e24aa' : 'none'}
                  strokeWidth={px}
                  strokeDasharray={layer.field ? `${3 * px} ${3 * px}` : undefined}
                  style={{ cursor: layer.locked ? 'default' : 'move' }}
                  onPointerDown={(event) => onLayerPointerDown(event, layer)}
                  onDoubleClick={() => layer.type === 'text' && onEditText?.(layer.id)}
                />
              </g>
            ))}
            {selected ? (
              <g transform={rotateOf(selected)} data-testid="selection">
                {/* A white halo under the blue line keeps the selection visible on any artwork. */}
                <rect
                  x={selected.x}
                  y={selected.y}
                  width={selected.width}
                  height={selected.height}
                  fill="none"
                  stroke="#ffffff"
                  strokeWidth={3.5 * px}
                  pointerEvents="none"
                />
                <rect
                  x={selected.x}
                  y={selected.y}
                  width={selected.width}
                  height={selected.height}
                  fill="none"
                  stroke={SELECTION}
                  strokeWidth={1.5 * px}
                  pointerEvents="none"
                />
                {selected.locked
                  ? null
                  : HANDLES.map((handle) => {
                      const p = handlePosition(selected, handle);
                      const size = HANDLE_PX * px;
                      return (
                        <rect
                          key={handle}
                          data-handle={handle}
                          aria-label={`Resize ${handle}`}
                          x={p.x - size / 2}
                          y={p.y - size / 2}
                          width={size}
                          height={size}
                          fill="#fff"
                          stroke={SELECTION}
                          strokeWidth={px}
                          style={{ cursor: HANDLE_CURSOR[handle] }}
                          onPointerDown={(event) =>
                            event.button === 0 &&
                            startDrag(event, {
                              kind: 'resize',
                              id: selected.id,
                              handle,
                              start: toMm(event),
                              layer: selected,
                              key: `drag-${++dragSeq}`,
                              targets: snapTargets(doc, pageIndex, [selected.id]),
                            })
                          }
                        />
                      );
                    })}
                {selected.locked ? null : (
                  <>
                    <line
                      x1={selected.x + selected.width / 2}
                      y1={selected.y}
                      x2={selected.x + selected.width / 2}
                      y2={selected.y - ROTATE_ARM_PX * px}
                      stroke={SELECTION}
                      strokeWidth={1.5 * px}
                      pointerEvents="none"
                    />
                    <circle
                      data-handle="rotate"
                      aria-label="Rotate"
                      cx={selected.x + selected.width / 2}
                      cy={selected.y - ROTATE_ARM_PX * px}
                      r={5 * px}
                      fill="#fff"
                      stroke={SELECTION}
                      strokeWidth={px}
                      style={{ cursor: 'grab' }}
                      onPointerDown={(event) =>
                        event.button === 0 &&
                        startDrag(event, { kind: 'rotate', id: selected.id, start: toMm(event), layer: selected, key: `drag-${++dragSeq}` })
                      }
                    />
                  </>
                )}
              </g>
            ) : null}
            {guides.x !== null ? (
              <line x1={guides.x} y1={-spec.bleed} x2={guides.x} y2={spec.height + spec.bleed} stroke="#ff00c8" strokeWidth={px} pointerEvents="none" />
            ) : null}
            {guides.y !== null ? (
              <line x1={-spec.bleed} y1={guides.y} x2={spec.width + spec.bleed} y2={guides.y} stroke="#ff00c8" strokeWidth={px} pointerEvents="none" />
            ) : null}
          </svg>
        </Box>
        {renderError ? (
          <Typography role="alert" color="error" variant="body2" sx={{ mt: 1, maxWidth: stageW }}>
            {renderError}
          </Typography>
        ) : null}
      </Box>
    </Box>
  );
}
