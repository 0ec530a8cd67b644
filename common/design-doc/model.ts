// The design document model: pure functions (no DOM) used by the editor and by tests.
// Every operation returns a new document and never changes its input; unknown page indexes or
// layer ids leave the document unchanged (same object), so callers can tell "nothing happened".
import { formatSpec } from './render';
import {
  BLEED_RANGE_MM,
  BUNDLED_FONTS,
  FORMATS,
  type DesignDocument,
  type FieldBinding,
  type Format,
  type ImageLayer,
  type Layer,
  type Page,
  type ProductType,
  type RectLayer,
  type TextLayer,
} from './types';

// ---------------------------------------------------------------------------------------------
// Documents and layers

/** The format a product type uses by default (Poster: A3). */
export function formatForProductType(productType: ProductType | null | undefined): Format {
  switch (productType) {
    case 'Mug':
      return 'mug-wrap';
    case 'Poster':
      return 'poster-a3';
    case 'E-card':
      return 'ecard';
    default:
      return 'card-a5';
  }
}

let idCounter = 0;

/** A new layer or page id: unique within a document (random part + counter). */
export function newId(prefix = 'l'): string {
  idCounter = (idCounter + 1) % 1_000_000;
  const random = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${random}${idCounter.toString(36)}`;
}

/** An empty document of a format: its pages (Card: Front, Inside left, Inside right, Back), white. */
export function newDocument(format: Format): DesignDocument {
  const spec = FORMATS[format];
  return {
    version: 1,
    format,
    pages: spec.pageNames.map((name, index) => ({ id: `page-${index + 1}`, name, background: '#ffffff', layers: [] })),
  };
}

type LayerInit<L extends Layer> = Partial<Omit<L, 'type'>>;

/** Centres a box of the given size on the page's trim box. */
function centred(format: Format, width: number, height: number) {
  const spec = FORMATS[format];
  return { x: round2((spec.width - width) / 2), y: round2((spec.height - height) / 2), width, height };
}

export function createTextLayer(format: Format, init: LayerInit<TextLayer> = {}): TextLayer {
  const spec = FORMATS[format];
  const width = init.width ?? round2(Math.min(spec.width - 2 * spec.safe, 120));
  const height = init.height ?? 20;
  return {
    id: newId('text'),
    name: 'Text',
    ...centred(format, width, height),
    rotation: 0,
    opacity: 1,
    text: 'Your text here',
    fontFamily: BUNDLED_FONTS[0],
    fontSize: 24,
    fontWeight: 400,
    color: '#222222',
    align: 'center',
    lineHeight: 1.2,
    ...init,
    type: 'text',
  };
}

export function createImageLayer(format: Format, src: string, init: LayerInit<ImageLayer> = {}): ImageLayer {
  const spec = FORMATS[format];
  const width = init.width ?? round2(Math.min(spec.width, spec.height) * 0.6);
  const height = init.height ?? width;
  return {
    id: newId('image'),
    name: 'Image',
    ...centred(format, width, height),
    rotation: 0,
    opacity: 1,
    fit: 'cover',
    ...init,
    src,
    type: 'image',
  };
}

export function createRectLayer(format: Format, init: LayerInit<RectLayer> = {}): RectLayer {
  const spec = FORMATS[format];
  const width = init.width ?? round2(spec.width / 2);
  const height = init.height ?? round2(spec.height / 4);
  return {
    id: newId('rect'),
    name: 'Rectangle',
    ...centred(format, width, height),
    rotation: 0,
    opacity: 1,
    fill: '#e91e63',
    radius: 0,
    ...init,
    type: 'rect',
  };
}

/** An image layer's natural size fitted inside the page's trim box (at most 80 %), keeping its ratio. */
export function fittedImageSize(format: Format, naturalWidth: number, naturalHeight: number): { width: number; height: number } {
  const spec = FORMATS[format];
  if (!(naturalWidth > 0) || !(naturalHeight > 0)) return { width: spec.width * 0.6, height: spec.width * 0.6 };
  const scale = Math.min((spec.width * 0.8) / naturalWidth, (spec.height * 0.8) / naturalHeight);
  return { width: round2(naturalWidth * scale), height: round2(naturalHeight * scale) };
}

export function findLayer(doc: DesignDocument, pageIndex: number, id: string): Layer | undefined {
  return doc.pages[pageIndex]?.layers.find((l) => l.id === id);
}

function withPage(doc: DesignDocument, pageIndex: number, change: (page: Page) => Page): DesignDocument {
  const page = doc.pages[pageIndex];
  if (!page) return doc;
  const next = change(page);
  if (next === page) return doc;
  const pages = doc.pages.slice();
  pages[pageIndex] = next;
  return { ...doc, pages };
}

function withLayer(doc: DesignDocument, pageIndex: number, id: string, change: (layer: Layer) => Layer): DesignDocument {
  return withPage(doc, pageIndex, (page) => {
    const index = page.layers.findIndex((l) => l.id === id);
    if (index < 0) return page;
    const next = change(page.layers[index]);
    if (next === page.layers[index]) return page;
    const layers = page.layers.slice();
    layers[index] = next;
    return { ...page, layers };
  });
}

/** Adds a layer on top (or at `index`, 0 = bottom). A layer whose id is taken gets a new one. */
export function addLayer(doc: DesignDocument, pageIndex: number, layer: Layer, index?: number): DesignDocument {
  return withPage(doc, pageIndex, (page) => {
    const taken = page.layers.some((l) => l.id === layer.id);
    const added = taken ? { ...layer, id: newId(layer.type) } : layer;
    const layers = page.layers.slice();
    const at = index === undefined ? layers.length : clamp(Math.round(index), 0, layers.length);
    layers.splice(at, 0, added);
    return { ...page, layers };
  });
}

export function deleteLayer(doc: DesignDocument, pageIndex: number, id: string): DesignDocument {
  return withPage(doc, pageIndex, (page) => {
    if (!page.layers.some((l) => l.id === id)) return page;
    return { ...page, layers: page.layers.filter((l) => l.id !== id) };
  });
}

/** Properties that never change through updateLayer: identity and kind. */
type LayerPatch = Partial<Omit<TextLayer, 'id' | 'type'>> &
  Partial<Omit<ImageLayer, 'id' | 'type'>> &
  Partial<Omit<RectLayer, 'id' | 'type'>>;

/**
 * Changes properties of a layer. Keys that do not belong to the layer's kind are ignored (a text
 * property on a rectangle), `undefined` removes an optional property; id and type never change.
 */
export function updateLayer(doc: DesignDocument, pageIndex: number, id: string, patch: LayerPatch): DesignDocument {
  return withLayer(doc, pageIndex, id, (layer) => {
    const allowed = LAYER_KEYS[layer.type];
    const next: Record<string, unknown> = { ...layer };
    let changed = false;
    for (const [key, value] of Object.entries(patch)) {
      if (!allowed.has(key) || next[key] === value) continue;
      if (value === undefined) delete next[key];
      else next[key] = value;
      changed = true;
    }
    if ('width' in patch || 'height' in patch) {
      next.width = Math.max(MIN_SIZE, Number(next.width));
      next.height = Math.max(MIN_SIZE, Number(next.height));
    }
    return changed ? (next as unknown as Layer) : layer;
  });
}

const BASE_KEYS = ['name', 'x', 'y', 'width', 'height', 'rotation', 'opacity', 'locked', 'field'];
const LAYER_KEYS: Record<Layer['type'], ReadonlySet<string>> = {
  text: new Set([...BASE_KEYS, 'text', 'fontFamily', 'fontSize', 'fontWeight', 'color', 'align', 'lineHeight']),
  image: new Set([...BASE_KEYS, 'src', 'fit']),
  rect: new Set([...BASE_KEYS, 'fill', 'stroke', 'strokeWidth', 'radius']),
};

/** The smallest width or height of a layer, mm. */
export const MIN_SIZE = 1;

/** Moves a layer to (x, y) (mm, top-left of its unrotated box). Locked layers do not move. */
export function moveLayer(doc: DesignDocument, pageIndex: number, id: string, x: number, y: number): DesignDocument {
  const layer = findLayer(doc, pageIndex, id);
  if (!layer || layer.locked) return doc;
  return updateLayer(doc, pageIndex, id, { x: round2(x), y: round2(y) });
}

/** Moves a layer by (dx, dy) mm. */
export function moveLayerBy(doc: DesignDocument, pageIndex: number, id: string, dx: number, dy: number): DesignDocument {
  const layer = findLayer(doc, pageIndex, id);
  if (!layer) return doc;
  return moveLayer(doc, pageIndex, id, layer.x + dx, layer.y + dy);
}

/** Sets a layer's box (at least MIN_SIZE wide and high). Locked layers do not change. */
export function resizeLayer(doc: DesignDocument, pageIndex: number, id: string, box: Rect): DesignDocument {
  const layer = findLayer(doc, pageIndex, id);
  if (!layer || layer.locked) return doc;
  return updateLayer(doc, pageIndex, id, {
    x: round2(box.x),
    y: round2(box.y),
    width: round2(Math.max(MIN_SIZE, box.width)),
    height: round2(Math.max(MIN_SIZE, box.height)),
  });
}

/** Normalises degrees to (-180, 180]. */
export function normaliseAngle(degrees: number): number {
  if (!Number.isFinite(degrees)) return 0;
  let a = degrees % 360;
  if (a > 180) a -= 360;
  if (a <= -180) a += 360;
  return round2(a) === 0 ? 0 : round2(a);
}

export function rotateLayer(doc: DesignDocument, pageIndex: number, id: string, degrees: number): DesignDocument {
  const layer = findLayer(doc, pageIndex, id);
  if (!layer || layer.locked) return doc;
  return updateLayer(doc, pageIndex, id, { rotation: normaliseAngle(degrees) });
}

export type ReorderTarget = 'up' | 'down' | 'top' | 'bottom';

/** Moves a layer one step up or down the stack, or to its top or bottom (layers are bottom to top). */
export function reorderLayer(doc: DesignDocument, pageIndex: number, id: string, to: ReorderTarget): DesignDocument {
  return withPage(doc, pageIndex, (page) => {
    const from = page.layers.findIndex((l) => l.id === id);
    if (from < 0) return page;
    const last = page.layers.length - 1;
    const target = to === 'up' ? Math.min(from + 1, last) : to === 'down' ? Math.max(from - 1, 0) : to === 'top' ? last : 0;
    if (target === from) return page;
    const layers = page.layers.slice();
    const [layer] = layers.splice(from, 1);
    layers.splice(target, 0, layer);
    return { ...page, layers };
  });
}

export function setBackground(doc: DesignDocument, pageIndex: number, color: string): DesignDocument {
  return withPage(doc, pageIndex, (page) => (page.background === color ? page : { ...page, background: color }));
}

/**
 * The design's own bleed in mm, or its format's again (`undefined`). A value outside BLEED_RANGE_MM
 * leaves the document unchanged: the validator would refuse to save it.
 */
export function setBleed(doc: DesignDocument, bleed: number | undefined): DesignDocument {
  if (bleed === undefined) {
    if (doc.bleed === undefined) return doc;
    const { bleed: _dropped, ...rest } = doc;
    return rest;
  }
  if (!Number.isFinite(bleed) || bleed < BLEED_RANGE_MM.min || bleed > BLEED_RANGE_MM.max || bleed === doc.bleed) return doc;
  return { ...doc, bleed };
}

/** Only text and image layers can be personalisation fields. */
export function canBeField(layer: Layer): boolean {
  return layer.type === 'text' || layer.type === 'image';
}

/** The binding a layer gets when first marked as a field: its current text (or picture) as the sample. */
export function defaultFieldBinding(layer: Layer): FieldBinding {
  if (layer.type === 'text') return { property: 'Recipient name', sample: layer.text, maxLength: 40, fit: 'shrink' };
  if (layer.type === 'image') return { property: 'Photo', sample: layer.src, fit: 'clip' };
  return { property: '', sample: '', fit: 'shrink' };
}

/** Binds a text or image layer to a line-item property (personalisation). */
export function markField(doc: DesignDocument, pageIndex: number, id: string, binding?: Partial<FieldBinding>): DesignDocument {
  const layer = findLayer(doc, pageIndex, id);
  if (!layer || !canBeField(layer)) return doc;
  const field: FieldBinding = { ...(layer.field ?? defaultFieldBinding(layer)), ...binding };
  if (field.maxLength === undefined) delete field.maxLength;
  return updateLayer(doc, pageIndex, id, { field });
}

export function unmarkField(doc: DesignDocument, pageIndex: number, id: string): DesignDocument {
  const layer = findLayer(doc, pageIndex, id);
  if (!layer?.field) return doc;
  return updateLayer(doc, pageIndex, id, { field: undefined });
}

/** Every personalisation field of the document, with where it is. */
export function fieldsOf(doc: DesignDocument): { pageIndex: number; layer: Layer; field: FieldBinding }[] {
  return doc.pages.flatMap((page, pageIndex) => page.layers.flatMap((layer) => (layer.field ? [{ pageIndex, layer, field: layer.field }] : [])));
}

// ---------------------------------------------------------------------------------------------
// Operations and history (undo/redo)

export type Operation =
  | { type: 'add-layer'; page: number; layer: Layer; index?: number }
  | { type: 'delete-layer'; page: number; id: string }
  | { type: 'update-layer'; page: number; id: string; patch: LayerPatch }
  | { type: 'move-layer'; page: number; id: string; x: number; y: number }
  | { type: 'resize-layer'; page: number; id: string; box: Rect }
  | { type: 'rotate-layer'; page: number; id: string; rotation: number }
  | { type: 'reorder-layer'; page: number; id: string; to: ReorderTarget }
  | { type: 'set-background'; page: number; color: string }
  | { type: 'set-bleed'; bleed: number | undefined }
  | { type: 'mark-field'; page: number; id: string; binding?: Partial<FieldBinding> }
  | { type: 'unmark-field'; page: number; id: string }
  | { type: 'replace'; doc: DesignDocument };

export function applyOperation(doc: DesignDocument, op: Operation): DesignDocument {
  switch (op.type) {
    case 'add-layer':
      return addLayer(doc, op.page, op.layer, op.index);
    case 'delete-layer':
      return deleteLayer(doc, op.page, op.id);
    case 'update-layer':
      return updateLayer(doc, op.page, op.id, op.patch);
    case 'move-layer':
      return moveLayer(doc, op.page, op.id, op.x, op.y);
    case 'resize-layer':
      return resizeLayer(doc, op.page, op.id, op.box);
    case 'rotate-layer':
      return rotateLayer(doc, op.page, op.id, op.rotation);
    case 'reorder-layer':
      return reorderLayer(doc, op.page, op.id, op.to);
    case 'set-background':
      return setBackground(doc, op.page, op.color);
    case 'set-bleed':
      return setBleed(doc, op.bleed);
    case 'mark-field':
      return markField(doc, op.page, op.id, op.binding);
    case 'unmark-field':
      return unmarkField(doc, op.page, op.id);
    case 'replace':
      return op.doc;
  }
}

export interface HistoryState {
  past: DesignDocument[];
  present: DesignDocument;
  future: DesignDocument[];
  /** Most undo steps kept. */
  limit: number;
  /** Key of the last applied change, for coalescing (a drag is one step). */
  lastKey: string | null;
}

export const DEFAULT_HISTORY_LIMIT = 100;

export function historyOf(doc: DesignDocument, limit = DEFAULT_HISTORY_LIMIT): HistoryState {
  return { past: [], present: doc, future: [], limit: Math.max(1, Math.floor(limit)), lastKey: null };
}

/**
 * Applies an operation as one undo step. With `coalesce` equal to the previous step's key (a drag's
 * moves, typing in one field) the change joins that step instead of adding one. A no-op changes nothing.
 */
export function historyApply(state: HistoryState, op: Operation, options: { coalesce?: string } = {}): HistoryState {
  const next = applyOperation(state.present, op);
  if (next === state.present) return state;
  const key = options.coalesce ?? null;
  if (key !== null && key === state.lastKey && state.past.length > 0) {
    return { ...state, present: next, future: [] };
  }
  const past = [...state.past, state.present];
  if (past.length > state.limit) past.splice(0, past.length - state.limit);
  return { ...state, past, present: next, future: [], lastKey: key };
}

export function historyUndo(state: HistoryState): HistoryState {
  if (!state.past.length) return state;
  const past = state.past.slice(0, -1);
  return { ...state, past, present: state.past[state.past.length - 1], future: [state.present, ...state.future], lastKey: null };
}

export function historyRedo(state: HistoryState): HistoryState {
  if (!state.future.length) return state;
  const [present, ...future] = state.future;
  return { ...state, past: [...state.past, state.present], present, future, lastKey: null };
}

/** Ends coalescing: the next change is a new step even with the same key (a new drag). */
export function historyBreak(state: HistoryState): HistoryState {
  return state.lastKey === null ? state : { ...state, lastKey: null };
}

export interface History {
  readonly present: DesignDocument;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly state: HistoryState;
  apply(op: Operation, options?: { coalesce?: string }): DesignDocument;
  undo(): DesignDocument;
  redo(): DesignDocument;
  /** Starts a new step for the next coalesced change. */
  commit(): void;
}

/** A mutable undo/redo history around the pure functions above, bounded to `limit` steps. */
export function createHistory(doc: DesignDocument, options: { limit?: number } = {}): History {
  let state = historyOf(doc, options.limit);
  return {
    get present() {
      return state.present;
    },
    get canUndo() {
      return state.past.length > 0;
    },
    get canRedo() {
      return state.future.length > 0;
    },
    get state() {
      return state;
    },
    apply(op, opts) {
      state = historyApply(state, op, opts);
      return state.present;
    },
    undo() {
      state = historyUndo(state);
      return state.present;
    },
    redo() {
      state = historyRedo(state);
      return state.present;
    },
    commit() {
      state = historyBreak(state);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Geometry: bounds, snapping, resize handles, nudging

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The axis-aligned box around a layer, rotation included. */
export function layerBounds(layer: Rect & { rotation?: number }): Rect {
  const angle = ((layer.rotation ?? 0) * Math.PI) / 180;
  if (!angle) return { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
  const cos = Math.abs(Math.cos(angle));
  const sin = Math.abs(Math.sin(angle));
  const width = layer.width * cos + layer.height * sin;
  const height = layer.width * sin + layer.height * cos;
  const cx = layer.x + layer.width / 2;
  const cy = layer.y + layer.height / 2;
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}

export interface SnapTargets {
  /** Vertical guide lines (x positions, mm). */
  x: number[];
  /** Horizontal guide lines (y positions, mm). */
  y: number[];
}

/**
 * What a moving layer snaps to: the trim edges, the page's centre lines, the safe area and the
 * bleed edges, and the edges and centres of the page's other layers (`exclude`: the moving ones).
 */
export function snapTargets(doc: DesignDocument, pageIndex: number, exclude: readonly string[] = []): SnapTargets {
  const spec = formatSpec(doc);
  const x = [0, spec.width / 2, spec.width, spec.safe, spec.width - spec.safe, -spec.bleed, spec.width + spec.bleed];
  const y = [0, spec.height / 2, spec.height, spec.safe, spec.height - spec.safe, -spec.bleed, spec.height + spec.bleed];
  for (const layer of doc.pages[pageIndex]?.layers ?? []) {
    if (exclude.includes(layer.id)) continue;
    const b = layerBounds(layer);
    x.push(b.x, b.x + b.width / 2, b.x + b.width);
    y.push(b.y, b.y + b.height / 2, b.y + b.height);
  }
  return { x: unique(x), y: unique(y) };
}

export interface SnapResult {
  x: number;
  y: number;
  /** The guide lines snapped to (draw them while dragging). */
  guides: { x: number | null; y: number | null };
}

/** The nearest target within `tolerance` of any of `values`: the shift to apply and the line. */
function nearest(values: number[], targets: number[], tolerance: number): { shift: number; line: number } | null {
  let best: { shift: number; line: number } | null = null;
  for (const v of values) {
    for (const t of targets) {
      const d = t - v;
      if (Math.abs(d) <= tolerance && (!best || Math.abs(d) < Math.abs(best.shift))) best = { shift: d, line: t };
    }
  }
  return best;
}

/**
 * Snaps a box (its bounds) to the targets: its left edge, centre or right edge to the nearest x
 * line within `tolerance` mm, and likewise vertically. Returns the snapped top-left and the lines.
 */
export function snap(rect: Rect, targets: SnapTargets, tolerance: number): SnapResult {
  const sx = nearest([rect.x, rect.x + rect.width / 2, rect.x + rect.width], targets.x, tolerance);
  const sy = nearest([rect.y, rect.y + rect.height / 2, rect.y + rect.height], targets.y, tolerance);
  return {
    x: sx ? round2(rect.x + sx.shift) : rect.x,
    y: sy ? round2(rect.y + sy.shift) : rect.y,
    guides: { x: sx ? sx.line : null, y: sy ? sy.line : null },
  };
}

/** Snaps a moving layer (of any rotation): its bounds are snapped, its own x/y shift by the same amount. */
export function snapLayerPosition(layer: Rect & { rotation?: number }, targets: SnapTargets, tolerance: number): SnapResult {
  const bounds = layerBounds(layer);
  const snapped = snap(bounds, targets, tolerance);
  return {
    x: snapped.guides.x === null ? layer.x : round2(layer.x + (snapped.x - bounds.x)),
    y: snapped.guides.y === null ? layer.y : round2(layer.y + (snapped.y - bounds.y)),
    guides: snapped.guides,
  };
}

/** Snaps one value (an edge being dragged) to the nearest line within tolerance. */
export function snapValue(value: number, lines: number[], tolerance: number): { value: number; guide: number | null } {
  const n = nearest([value], lines, tolerance);
  return n ? { value: round2(value + n.shift), guide: n.line } : { value, guide: null };
}

export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';

export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/**
 * Resizes a (possibly rotated) box by dragging one of its handles by (dx, dy) in page space, mm.
 * The opposite edge or corner stays where it is on the page. With `keepRatio` a corner keeps the
 * box's proportions. Sizes never go below MIN_SIZE.
 */
export function resizeByHandle(
  box: Rect & { rotation?: number },
  handle: Handle,
  dx: number,
  dy: number,
  options: { keepRatio?: boolean } = {},
): Rect {
  const angle = ((box.rotation ?? 0) * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // The drag in the box's own (unrotated) axes.
  const lx = dx * cos + dy * sin;
  const ly = -dx * sin + dy * cos;
  const hx = handle.includes('e') ? 1 : handle.includes('w') ? -1 : 0;
  const hy = handle.includes('s') ? 1 : handle.includes('n') ? -1 : 0;
  let width = Math.max(MIN_SIZE, box.width + hx * lx);
  let height = Math.max(MIN_SIZE, box.height + hy * ly);
  if (options.keepRatio && hx !== 0 && hy !== 0 && box.width > 0 && box.height > 0) {
    const scale = Math.max(width / box.width, height / box.height);
    width = Math.max(MIN_SIZE, box.width * scale);
    height = Math.max(MIN_SIZE, box.height * scale);
  }
  // The anchor (opposite handle) in local coordinates from the centre, before and after.
  const ax = (-hx * box.width) / 2;
  const ay = (-hy * box.height) / 2;
  const nax = (-hx * width) / 2;
  const nay = (-hy * height) / 2;
  // The centre moves so the anchor stays put on the page.
  const cx = box.x + box.width / 2 + rotX(ax - nax, ay - nay, cos, sin);
  const cy = box.y + box.height / 2 + rotY(ax - nax, ay - nay, cos, sin);
  return { x: round2(cx - width / 2), y: round2(cy - height / 2), width: round2(width), height: round2(height) };
}

const rotX = (x: number, y: number, cos: number, sin: number) => x * cos - y * sin;
const rotY = (x: number, y: number, cos: number, sin: number) => x * sin + y * cos;

/**
 * The rotation (degrees) that points a layer's top at `point` (page mm), for the rotation handle.
 * With `step` (e.g. 15 while Shift is held) the angle snaps to multiples of it.
 */
export function rotationTowards(box: Rect, point: { x: number; y: number }, step?: number): number {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  let degrees = (Math.atan2(point.x - cx, -(point.y - cy)) * 180) / Math.PI;
  if (step && step > 0) degrees = Math.round(degrees / step) * step;
  return normaliseAngle(degrees);
}

/** Arrow-key nudge step, mm; Shift moves ten times as far. */
export const NUDGE_STEP = 1;

/** The move an arrow key asks for, or null for any other key. */
export function nudgeDelta(key: string, shift: boolean, step = NUDGE_STEP): { dx: number; dy: number } | null {
  const d = shift ? step * 10 : step;
  switch (key) {
    case 'ArrowLeft':
      return { dx: -d, dy: 0 };
    case 'ArrowRight':
      return { dx: d, dy: 0 };
    case 'ArrowUp':
      return { dx: 0, dy: -d };
    case 'ArrowDown':
      return { dx: 0, dy: d };
    default:
      return null;
  }
}

/** The move-layer operation for an arrow key on a layer, or null (other key, locked or unknown layer). */
export function nudgeOperation(doc: DesignDocument, pageIndex: number, id: string, key: string, shift: boolean): Operation | null {
  const delta = nudgeDelta(key, shift);
  const layer = findLayer(doc, pageIndex, id);
  if (!delta || !layer || layer.locked) return null;
  return { type: 'move-layer', page: pageIndex, id, x: round2(layer.x + delta.dx), y: round2(layer.y + delta.dy) };
}

// ---------------------------------------------------------------------------------------------

function clamp(v: number, min: number, max: number) {
  return Math.min(max, Math.max(min, v));
}

/** Rounds to 0.01 mm, so documents do not fill with float noise. */
export function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

function unique(values: number[]): number[] {
  return [...new Set(values.map(round2))];
}
