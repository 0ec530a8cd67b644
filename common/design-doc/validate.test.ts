import { describe, expect, it } from 'vitest';
import { addLayer, createImageLayer, createRectLayer, createTextLayer, markField, newDocument } from './model';
import type { DesignDocument } from './types';
import { describeInvalid, isImageSource, validateDocument } from './validate';

function sample(): DesignDocument {
  let doc = newDocument('card-a5');
  doc = addLayer(doc, 0, createRectLayer('card-a5', { id: 'r' }));
  doc = addLayer(doc, 0, createImageLayer('card-a5', '/files/designs/1-photo.png', { id: 'i' }));
  doc = addLayer(doc, 0, createTextLayer('card-a5', { id: 't' }));
  return markField(doc, 0, 't', { property: 'Recipient name' });
}

type Path = (string | number)[];

/** A deep copy with the value at `path` replaced, like a hand-edited JSON. */
function broken(path: Path, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(sample())) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1]] = value;
  return copy;
}

const pages = () => sample().pages;

describe('validateDocument', () => {
  it('accepts a valid document and gives it back', () => {
    const doc = sample();
    const result = validateDocument(JSON.parse(JSON.stringify(doc)));
    expect(result).toEqual({ ok: true, doc });
  });

  it('names the path of a bad field', () => {
    const result = validateDocument(broken(['pages', 0, 'layers', 2, 'fontSize'], 0));
    expect(result).toEqual({ ok: false, path: 'pages.0.layers.2.fontSize', message: 'must be at least 1 pt' });
    expect(describeInvalid(result as { path: string; message: string })).toBe('pages.0.layers.2.fontSize: must be at least 1 pt');
  });

  it.each<[string, Path, unknown, string]>([
    ['a wrong type', ['pages', 0, 'layers', 0, 'x'], '10', 'pages.0.layers.0.x'],
    ['an unknown font', ['pages', 0, 'layers', 2, 'fontFamily'], 'Comic Sans', 'pages.0.layers.2.fontFamily'],
    ['a bad colour', ['pages', 1, 'background'], 'url(javascript:1)', 'pages.1.background'],
    ['an image from an odd place', ['pages', 0, 'layers', 1, 'src'], 'file:///etc/passwd', 'pages.0.layers.1.src'],
    ['an empty field property', ['pages', 0, 'layers', 2, 'field', 'property'], ' ', 'pages.0.layers.2.field.property'],
    ['a bad fit rule', ['pages', 0, 'layers', 2, 'field', 'fit'], 'squeeze', 'pages.0.layers.2.field.fit'],
    ['an unknown layer type', ['pages', 2, 'layers'], [{ type: 'video' }], 'pages.2.layers.0.type'],
    ['a missing page', ['pages'], pages().slice(0, 3), 'pages'],
    ['an unknown format', ['format'], 'card-a4', 'format'],
    ['another version', ['version'], 2, 'version'],
    ['a duplicate layer id', ['pages', 0, 'layers', 1, 'id'], 'r', 'pages.0.layers.1.id'],
    ['a NaN size', ['pages', 0, 'layers', 0, 'width'], Number.NaN, 'pages.0.layers.0.width'],
  ])('refuses %s with its path', (_what, at, value, path) => {
    const result = validateDocument(broken(at, value));
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ path });
  });

  it('refuses something that is not a document', () => {
    expect(validateDocument(null)).toMatchObject({ ok: false, path: '(document)' });
    expect(validateDocument('{}')).toMatchObject({ ok: false });
  });

  it('accepts image sources from our storage, http(s) and data URLs only', () => {
    expect(isImageSource('/files/a/b.png')).toBe(true);
    expect(isImageSource('https://example.com/a.png')).toBe(true);
    expect(isImageSource('data:image/png;base64,iVBORw0KGgo=')).toBe(true);
    expect(isImageSource('/files/../secret')).toBe(false);
    expect(isImageSource('javascript:alert(1)')).toBe(false);
    expect(isImageSource('data:text/html;base64,PGgxPg==')).toBe(false);
  });
});
