import { describe, expect, it } from 'vitest';
import {
  addLayer,
  applyOperation,
  createHistory,
  createImageLayer,
  createRectLayer,
  createTextLayer,
  deleteLayer,
  fieldsOf,
  findLayer,
  formatForProductType,
  historyApply,
  historyOf,
  layerBounds,
  markField,
  moveLayer,
  moveLayerBy,
  newDocument,
  normaliseAngle,
  nudgeDelta,
  nudgeOperation,
  reorderLayer,
  resizeByHandle,
  resizeLayer,
  rotateLayer,
  rotationTowards,
  setBackground,
  snap,
  snapLayerPosition,
  snapTargets,
  snapValue,
  unmarkField,
  updateLayer,
  type Operation,
} from './model';
import { FORMATS, type DesignDocument, type TextLayer } from './types';
import { validateDocument } from './validate';

const ids = (doc: DesignDocument, page = 0) => doc.pages[page].layers.map((l) => l.id);

function cardWith(...names: string[]): DesignDocument {
  let doc = newDocument('card-a5');
  for (const name of names) doc = addLayer(doc, 0, createRectLayer('card-a5', { id: name, name }));
  return doc;
}

describe('newDocument', () => {
  it('gives a card four white A5 pages in print order', () => {
    const doc = newDocument('card-a5');
    expect(doc.version).toBe(1);
    expect(doc.pages.map((p) => p.name)).toEqual(['Front', 'Inside left', 'Inside right', 'Back']);
    expect(doc.pages.every((p) => p.background === '#ffffff' && p.layers.length === 0)).toBe(true);
    expect(new Set(doc.pages.map((p) => p.id)).size).toBe(4);
    expect(validateDocument(doc).ok).toBe(true);
  });

  it('gives a mug and posters one page each', () => {
    expect(newDocument('mug-wrap').pages.map((p) => p.name)).toEqual(['Wrap']);
    expect(newDocument('poster-a3').pages).toHaveLength(1);
    expect(newDocument('poster-a2').pages).toHaveLength(1);
  });

  it('gives an e-card one valid landscape Front page without bleed', () => {
    const doc = newDocument('ecard');
    expect(doc.pages.map((p) => p.name)).toEqual(['Front']);
    expect(validateDocument(doc).ok).toBe(true);
  });

  it('picks the format of a product type', () => {
    expect(formatForProductType('Card')).toBe('card-a5');
    expect(formatForProductType('Mug')).toBe('mug-wrap');
    expect(formatForProductType('Poster')).toBe('poster-a3');
    expect(formatForProductType('E-card')).toBe('ecard');
    expect(formatForProductType(null)).toBe('card-a5');
  });
});

describe('layer operations', () => {
  it('adds text, image and rectangle layers centred on the page, each valid', () => {
    let doc = newDocument('card-a5');
    const text = createTextLayer('card-a5');
    doc = addLayer(doc, 0, text);
    doc = addLayer(doc, 0, createImageLayer('card-a5', '/files/a.png'));
    doc = addLayer(doc, 0, createRectLayer('card-a5'));
    expect(doc.pages[0].layers.map((l) => l.type)).toEqual(['text', 'image', 'rect']);
    expect(text.x + text.width / 2).toBeCloseTo(FORMATS['card-a5'].width / 2);
    expect(text.fontFamily).toBe('Raleway');
    expect(validateDocument(doc)).toMatchObject({ ok: true });
  });

  it('never changes its input and gives a taken id a new one', () => {
    const doc = cardWith('a');
    const before = JSON.stringify(doc);
    const next = addLayer(doc, 0, createRectLayer('card-a5', { id: 'a' }));
    expect(JSON.stringify(doc)).toBe(before);
    expect(ids(next)).toHaveLength(2);
    expect(new Set(ids(next)).size).toBe(2);
  });

  it('leaves the document as it is for an unknown page or layer', () => {
    const doc = cardWith('a');
    expect(addLayer(doc, 9, createRectLayer('card-a5'))).toBe(doc);
    expect(deleteLayer(doc, 0, 'nope')).toBe(doc);
    expect(moveLayer(doc, 0, 'nope', 1, 1)).toBe(doc);
    expect(reorderLayer(doc, 0, 'nope', 'top')).toBe(doc);
  });

  it('moves, resizes (never below 1 mm) and rotates a layer', () => {
    let doc = cardWith('a');
    doc = moveLayer(doc, 0, 'a', 10.123, 20);
    expect(findLayer(doc, 0, 'a')).toMatchObject({ x: 10.12, y: 20 });
    doc = moveLayerBy(doc, 0, 'a', -5, 5);
    expect(findLayer(doc, 0, 'a')).toMatchObject({ x: 5.12, y: 25 });
    doc = resizeLayer(doc, 0, 'a', { x: 1, y: 2, width: 0.2, height: 40 });
    expect(findLayer(doc, 0, 'a')).toMatchObject({ x: 1, y: 2, width: 1, height: 40 });
    doc = rotateLayer(doc, 0, 'a', 370);
    expect(findLayer(doc, 0, 'a')?.rotation).toBe(10);
    expect(normaliseAngle(-190)).toBe(170);
    expect(normaliseAngle(180)).toBe(180);
  });

  it('does not move, resize or rotate a locked layer', () => {
    let doc = cardWith('a');
    doc = updateLayer(doc, 0, 'a', { locked: true });
    expect(moveLayer(doc, 0, 'a', 50, 50)).toBe(doc);
    expect(resizeLayer(doc, 0, 'a', { x: 0, y: 0, width: 5, height: 5 })).toBe(doc);
    expect(rotateLayer(doc, 0, 'a', 45)).toBe(doc);
  });

  it('reorders up, down, to the top and to the bottom', () => {
    const doc = cardWith('a', 'b', 'c', 'd');
    expect(ids(reorderLayer(doc, 0, 'b', 'up'))).toEqual(['a', 'c', 'b', 'd']);
    expect(ids(reorderLayer(doc, 0, 'b', 'down'))).toEqual(['b', 'a', 'c', 'd']);
    expect(ids(reorderLayer(doc, 0, 'b', 'top'))).toEqual(['a', 'c', 'd', 'b']);
    expect(ids(reorderLayer(doc, 0, 'c', 'bottom'))).toEqual(['c', 'a', 'b', 'd']);
    // Already at the end: nothing changes.
    expect(reorderLayer(doc, 0, 'd', 'up')).toBe(doc);
    expect(reorderLayer(doc, 0, 'a', 'bottom')).toBe(doc);
  });

  it('deletes a layer', () => {
    expect(ids(deleteLayer(cardWith('a', 'b', 'c'), 0, 'b'))).toEqual(['a', 'c']);
  });

  it('updates only the properties of the layer kind, never id or type', () => {
    let doc = newDocument('card-a5');
    doc = addLayer(doc, 0, createTextLayer('card-a5', { id: 't' }));
    doc = updateLayer(doc, 0, 't', { text: 'Hello', fontSize: 30, fill: '#000', id: 'x', type: 'rect' } as never);
    const layer = findLayer(doc, 0, 't') as TextLayer;
    expect(layer).toMatchObject({ id: 't', type: 'text', text: 'Hello', fontSize: 30 });
    expect('fill' in layer).toBe(false);
    expect(updateLayer(doc, 0, 't', { text: 'Hello' })).toBe(doc);
  });

  it('sets a page background', () => {
    const doc = setBackground(newDocument('card-a5'), 3, '#ffeecc');
    expect(doc.pages[3].background).toBe('#ffeecc');
    expect(doc.pages[0].background).toBe('#ffffff');
  });

  it('marks a text or image layer as a personalisation field and unmarks it', () => {
    let doc = newDocument('card-a5');
    doc = addLayer(doc, 0, createTextLayer('card-a5', { id: 't', text: 'Dear Sam' }));
    doc = addLayer(doc, 1, createImageLayer('card-a5', '/files/p.png', { id: 'i' }));
    doc = addLayer(doc, 0, createRectLayer('card-a5', { id: 'r' }));
    doc = markField(doc, 0, 't', { property: 'Recipient name', maxLength: 20 });
    expect(findLayer(doc, 0, 't')?.field).toEqual({ property: 'Recipient name', sample: 'Dear Sam', maxLength: 20, fit: 'shrink' });
    doc = markField(doc, 0, 't', { fit: 'clip' });
    expect(findLayer(doc, 0, 't')?.field).toMatchObject({ property: 'Recipient name', fit: 'clip', maxLength: 20 });
    doc = markField(doc, 1, 'i');
    expect(findLayer(doc, 1, 'i')?.field).toMatchObject({ property: 'Photo', sample: '/files/p.png' });
    // Rectangles cannot be fields.
    expect(markField(doc, 0, 'r')).toBe(doc);
    expect(fieldsOf(doc).map((f) => f.field.property)).toEqual(['Recipient name', 'Photo']);
    expect(validateDocument(doc).ok).toBe(true);
    doc = unmarkField(doc, 0, 't');
    expect(findLayer(doc, 0, 't')).not.toHaveProperty('field');
    expect(unmarkField(doc, 0, 't')).toBe(doc);
  });
});

describe('history (undo/redo)', () => {
  const add = (id: string): Operation => ({ type: 'add-layer', page: 0, layer: createRectLayer('card-a5', { id }) });

  it('undoes and redoes a sequence of operations', () => {
    const h = createHistory(newDocument('card-a5'));
    h.apply(add('a'));
    h.apply(add('b'));
    h.apply({ type: 'move-layer', page: 0, id: 'a', x: 1, y: 2 });
    h.apply({ type: 'reorder-layer', page: 0, id: 'a', to: 'top' });
    expect(ids(h.present)).toEqual(['b', 'a']);
    h.undo();
    expect(ids(h.present)).toEqual(['a', 'b']);
    expect(findLayer(h.present, 0, 'a')).toMatchObject({ x: 1, y: 2 });
    h.undo();
    expect(findLayer(h.present, 0, 'a')).not.toMatchObject({ x: 1, y: 2 });
    h.undo();
    h.undo();
    expect(ids(h.present)).toEqual([]);
    expect(h.canUndo).toBe(false);
    // Undo with nothing left does nothing.
    h.undo();
    expect(ids(h.present)).toEqual([]);
    h.redo();
    h.redo();
    expect(ids(h.present)).toEqual(['a', 'b']);
    expect(h.canRedo).toBe(true);
  });

  it('drops the redo branch when a new change is made after undo', () => {
    const h = createHistory(newDocument('card-a5'));
    h.apply(add('a'));
    h.apply(add('b'));
    h.undo();
    h.apply(add('c'));
    expect(ids(h.present)).toEqual(['a', 'c']);
    expect(h.canRedo).toBe(false);
    h.redo();
    expect(ids(h.present)).toEqual(['a', 'c']);
  });

  it('ignores operations that change nothing', () => {
    const h = createHistory(newDocument('card-a5'));
    h.apply(add('a'));
    h.apply({ type: 'delete-layer', page: 0, id: 'missing' });
    h.undo();
    expect(ids(h.present)).toEqual([]);
  });

  it('is bounded: only the last `limit` steps can be undone', () => {
    const h = createHistory(newDocument('card-a5'), { limit: 3 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) h.apply(add(id));
    expect(h.state.past).toHaveLength(3);
    while (h.canUndo) h.undo();
    expect(ids(h.present)).toEqual(['a', 'b']);
  });

  it('coalesces a drag into one step, and a new drag into another', () => {
    const h = createHistory(cardWith('a'));
    for (let x = 1; x <= 5; x++) h.apply({ type: 'move-layer', page: 0, id: 'a', x, y: 0 }, { coalesce: 'drag:a' });
    h.commit();
    for (let x = 10; x <= 12; x++) h.apply({ type: 'move-layer', page: 0, id: 'a', x, y: 0 }, { coalesce: 'drag:a' });
    expect(findLayer(h.present, 0, 'a')?.x).toBe(12);
    h.undo();
    expect(findLayer(h.present, 0, 'a')?.x).toBe(5);
    h.undo();
    expect(findLayer(h.present, 0, 'a')?.x).not.toBe(5);
    expect(h.canUndo).toBe(false);
  });

  it('keeps the pure state functions immutable', () => {
    const s0 = historyOf(newDocument('card-a5'));
    const s1 = historyApply(s0, add('a'));
    expect(s0.past).toHaveLength(0);
    expect(ids(s0.present)).toEqual([]);
    expect(ids(s1.present)).toEqual(['a']);
  });

  it('applies every operation kind', () => {
    let doc = applyOperation(newDocument('card-a5'), add('a'));
    doc = applyOperation(doc, { type: 'update-layer', page: 0, id: 'a', patch: { fill: '#000000' } });
    doc = applyOperation(doc, { type: 'resize-layer', page: 0, id: 'a', box: { x: 0, y: 0, width: 10, height: 10 } });
    doc = applyOperation(doc, { type: 'rotate-layer', page: 0, id: 'a', rotation: 90 });
    doc = applyOperation(doc, { type: 'set-background', page: 0, color: '#000000' });
    expect(doc.pages[0]).toMatchObject({ background: '#000000', layers: [{ fill: '#000000', width: 10, rotation: 90 }] });
    const replaced = newDocument('mug-wrap');
    expect(applyOperation(doc, { type: 'replace', doc: replaced })).toBe(replaced);
  });
});

describe("a design's own bleed", () => {
  it('is set, kept within BLEED_RANGE_MM, and cleared back to the format\'s', () => {
    const doc = newDocument('card-a5');
    const wide = applyOperation(doc, { type: 'set-bleed', bleed: 4 });
    expect(wide.bleed).toBe(4);
    expect(applyOperation(wide, { type: 'set-bleed', bleed: 11 })).toBe(wide);
    expect(applyOperation(wide, { type: 'set-bleed', bleed: -1 })).toBe(wide);
    const none = applyOperation(wide, { type: 'set-bleed', bleed: 0 });
    expect(none.bleed).toBe(0);
    const back = applyOperation(none, { type: 'set-bleed', bleed: undefined });
    expect('bleed' in back).toBe(false);
    expect(applyOperation(doc, { type: 'set-bleed', bleed: undefined })).toBe(doc);
  });
});

describe('snapping', () => {
  const spec = FORMATS['card-a5'];

  it('snaps to page edges and centre lines within the tolerance', () => {
    const doc = newDocument('card-a5');
    const targets = snapTargets(doc, 0);
    // Left edge 1.5 mm from the trim edge → 0.
    expect(snap({ x: 1.5, y: 50, width: 20, height: 10 }, targets, 2)).toMatchObject({ x: 0, guides: { x: 0 } });
    // Centre 1 mm off the page's vertical centre line.
    const centred = snap({ x: spec.width / 2 - 10 + 1, y: 100, width: 20, height: 10 }, targets, 2);
    expect(centred.x).toBeCloseTo(spec.width / 2 - 10);
    expect(centred.guides.x).toBe(spec.width / 2);
    // Right edge to the trim's right edge, bottom edge to the bottom edge.
    const corner = snap({ x: spec.width - 21, y: spec.height - 12.4, width: 20, height: 12 }, targets, 2);
    expect(corner).toMatchObject({ x: spec.width - 20, y: spec.height - 12, guides: { x: spec.width, y: spec.height } });
  });

  it("snaps to the design's own bleed edge, not the format's", () => {
    const doc = applyOperation(newDocument('card-a5'), { type: 'set-bleed', bleed: 5 });
    const targets = snapTargets(doc, 0);
    expect(targets.x).toEqual(expect.arrayContaining([-5, spec.width + 5]));
    expect(targets.x).not.toContain(-spec.bleed);
  });

  it('does not snap beyond the tolerance', () => {
    const targets = snapTargets(newDocument('card-a5'), 0);
    const r = snap({ x: 30, y: 40, width: 20, height: 10 }, targets, 1);
    expect(r).toEqual({ x: 30, y: 40, guides: { x: null, y: null } });
  });

  it("snaps to other layers' edges and centres but not to the moving layer itself", () => {
    let doc = cardWith('other', 'moving');
    doc = resizeLayer(doc, 0, 'other', { x: 40, y: 60, width: 30, height: 20 });
    doc = resizeLayer(doc, 0, 'moving', { x: 71, y: 91, width: 10, height: 10 });
    const targets = snapTargets(doc, 0, ['moving']);
    expect(targets.x).toEqual(expect.arrayContaining([40, 55, 70]));
    expect(targets.x).not.toContain(71);
    // Left edge 71 → the other's right edge 70.
    expect(snap({ x: 71, y: 91, width: 10, height: 10 }, targets, 1.5)).toMatchObject({ x: 70, guides: { x: 70 } });
    // The nearest line wins: centre 55.4 → 55 beats nothing else.
    expect(snap({ x: 50.4, y: 0.3, width: 10, height: 10 }, targets, 1)).toMatchObject({ x: 50, y: 0 });
  });

  it('snaps a rotated layer by its bounds', () => {
    const layer = { x: 10, y: 10, width: 20, height: 10, rotation: 90 };
    const b = layerBounds(layer);
    expect(b.width).toBeCloseTo(10);
    expect(b.height).toBeCloseTo(20);
    // Bounds left = 15 → snap to an x line at 14.
    const r = snapLayerPosition(layer, { x: [14], y: [] }, 2);
    expect(r.x).toBeCloseTo(9);
    expect(r.guides.x).toBe(14);
  });

  it('snaps a single dragged edge', () => {
    expect(snapValue(99.2, [0, 100], 1)).toEqual({ value: 100, guide: 100 });
    expect(snapValue(90, [0, 100], 1)).toEqual({ value: 90, guide: null });
  });
});

describe('resize handles and rotation', () => {
  it('resizes from a corner keeping the opposite corner in place', () => {
    const box = { x: 10, y: 10, width: 20, height: 10, rotation: 0 };
    expect(resizeByHandle(box, 'se', 5, 5)).toEqual({ x: 10, y: 10, width: 25, height: 15 });
    expect(resizeByHandle(box, 'nw', 5, 5)).toEqual({ x: 15, y: 15, width: 15, height: 5 });
    expect(resizeByHandle(box, 'e', 5, 100)).toEqual({ x: 10, y: 10, width: 25, height: 10 });
    expect(resizeByHandle(box, 'n', 0, 100)).toMatchObject({ height: 1 });
  });

  it('keeps the ratio on a corner when asked', () => {
    const r = resizeByHandle({ x: 0, y: 0, width: 20, height: 10 }, 'se', 20, 0, { keepRatio: true });
    expect(r).toEqual({ x: 0, y: 0, width: 40, height: 20 });
  });

  it('resizes a rotated layer along its own axes with its anchor fixed on the page', () => {
    // Rotated 90° clockwise: the layer's own "east" points down the page.
    const box = { x: 0, y: 0, width: 20, height: 10, rotation: 90 };
    const r = resizeByHandle(box, 'e', 0, 6);
    expect(r.width).toBeCloseTo(26);
    expect(r.height).toBeCloseTo(10);
    // The west edge's midpoint stays where it was: centre (10,5), west local (-10,0) → page (10,-5).
    const cx = r.x + r.width / 2;
    const cy = r.y + r.height / 2;
    expect(cx).toBeCloseTo(10);
    expect(cy - r.width / 2).toBeCloseTo(-5);
  });

  it('points the rotation handle, with optional steps', () => {
    const box = { x: 0, y: 0, width: 10, height: 10 };
    expect(rotationTowards(box, { x: 5, y: -10 })).toBe(0);
    expect(rotationTowards(box, { x: 20, y: 5 })).toBe(90);
    expect(rotationTowards(box, { x: 5, y: 20 })).toBe(180);
    expect(rotationTowards(box, { x: 20, y: -9 }, 15)).toBe(45);
  });
});

describe('keyboard nudge', () => {
  it('moves 1 mm per arrow key and 10 mm with Shift', () => {
    expect(nudgeDelta('ArrowLeft', false)).toEqual({ dx: -1, dy: 0 });
    expect(nudgeDelta('ArrowDown', true)).toEqual({ dx: 0, dy: 10 });
    expect(nudgeDelta('a', false)).toBeNull();
  });

  it('gives the move operation of a layer', () => {
    const doc = moveLayer(cardWith('a'), 0, 'a', 5, 5);
    expect(nudgeOperation(doc, 0, 'a', 'ArrowRight', true)).toEqual({ type: 'move-layer', page: 0, id: 'a', x: 15, y: 5 });
    expect(nudgeOperation(doc, 0, 'a', 'Enter', false)).toBeNull();
    expect(nudgeOperation(updateLayer(doc, 0, 'a', { locked: true }), 0, 'a', 'ArrowUp', false)).toBeNull();
  });
});
