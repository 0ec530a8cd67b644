// What an uploaded or fetched file really is. Two levels:
//  - `matchesType`: the first bytes agree with the declared type (cheap, on the head only);
//  - `fileProblem`: the whole file is usable as that type — images complete and within the pixel
//    limit (no truncated files, no pixel floods), PDFs without active content (JavaScript, launch
//    actions, embedded files), JSON that parses, CSV that is text and not markup.
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, type PDFObject } from 'pdf-lib';
import sharp from 'sharp';
import { ImageError, MAX_PIXELS, inspectJpeg, inspectPng } from '../images';

export const ALLOWED_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/pdf', 'text/csv', 'application/json'] as const;
export type AllowedType = (typeof ALLOWED_TYPES)[number];

const MAGIC: Partial<Record<AllowedType, (b: Buffer) => boolean>> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
};

export function matchesType(type: AllowedType, head: Buffer): boolean {
  const check = MAGIC[type];
  if (check) return check(head);
  // Text types: no NUL bytes in the head.
  return !head.includes(0);
}

/** Markup (SVG, HTML, XML) at the start of a file: never accepted as an image, CSV or JSON. */
export function looksLikeMarkup(b: Uint8Array): boolean {
  const head = Buffer.from(b.buffer, b.byteOffset, Math.min(b.byteLength, 512))
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .trimStart()
    .toLowerCase();
  return /^<(?:\?xml|!doctype|svg|html|head|body|script|iframe|!--|[a-z][\w:-]*[\s>/])/.test(head);
}

// ---------------------------------------------------------------------------------------------
// PDFs: active content

/** Keys that carry scripts, forms that post, or files inside the PDF. */
const ACTIVE_KEYS = new Set(['JS', 'JavaScript', 'RichMedia', 'EmbeddedFile', 'EmbeddedFiles', 'XFA']);
/** Action types that run code, open other files or send data. */
const ACTIVE_ACTIONS = new Set(['JavaScript', 'Launch', 'SubmitForm', 'ImportData', 'GoToE', 'GoToR', 'Rendition', 'RichMediaExecute', 'Sound', 'Movie']);

function activeIn(obj: PDFObject | undefined, depth: number): string | null {
  if (!obj || depth > 32) return null;
  if (obj instanceof PDFStream) return activeIn(obj.dict, depth + 1);
  if (obj instanceof PDFArray) {
    for (let i = 0; i < obj.size(); i++) {
      const found = activeIn(obj.get(i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (!(obj instanceof PDFDict)) return null;
  for (const [key, value] of obj.entries()) {
    const k = key.decodeText();
    if (ACTIVE_KEYS.has(k)) return `/${k}`;
    if (k === 'S' && value instanceof PDFName && ACTIVE_ACTIONS.has(value.decodeText())) return `a /${value.decodeText()} action`;
    if (!(value instanceof PDFRef)) {
      const found = activeIn(value, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Why a PDF must not be used (not a PDF, encrypted, or holding JavaScript / launch actions /
 * embedded files — wherever they hide: catalog, pages, annotations, object streams), or null.
 */
export async function pdfProblem(bytes: Uint8Array): Promise<string | null> {
  if (Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(5, bytes.byteLength)).toString('latin1') !== '%PDF-') return 'the file is not a PDF';
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: true });
  } catch {
    return 'the file is not a valid PDF (it could not be read)';
  }
  if (doc.isEncrypted) return 'the PDF is encrypted';
  try {
    if (doc.getPageCount() === 0) return 'the PDF has no pages';
    for (const [, obj] of doc.context.enumerateIndirectObjects()) {
      const found = activeIn(obj, 0);
      if (found) return `the PDF holds active content (${found}); print files must not carry scripts, actions or embedded files`;
    }
    const inCatalog = activeIn(doc.catalog, 0);
    if (inCatalog) return `the PDF holds active content (${inCatalog}); print files must not carry scripts, actions or embedded files`;
  } catch {
    // A document without a page tree or catalog: pdf-lib throws on reading it.
    return 'the file is not a valid PDF (it has no readable page tree)';
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The whole file

/** Why a file of the declared type cannot be accepted (truncated, too many pixels, active content, not parseable), or null. */
export async function fileProblem(type: AllowedType, bytes: Buffer): Promise<string | null> {
  try {
    switch (type) {
      case 'image/png':
        inspectPng(bytes);
        return null;
      case 'image/jpeg':
        inspectJpeg(bytes);
        return null;
      case 'image/gif':
      case 'image/webp': {
        const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
        if (!meta.width || !meta.height) return 'the image has no pixels';
        return null;
      }
      case 'application/pdf':
        return await pdfProblem(bytes);
      case 'application/json': {
        if (looksLikeMarkup(bytes)) return 'the file is markup (SVG/HTML/XML), not JSON';
        const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        JSON.parse(text.replace(/^\ufeff/, ''));
        return null;
      }
      case 'text/csv': {
        if (bytes.includes(0)) return 'the file is not text (it holds NUL bytes)';
        if (looksLikeMarkup(bytes)) return 'the file is markup (SVG/HTML/XML), not CSV';
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        return null;
      }
    }
  } catch (err) {
    if (err instanceof ImageError) return err.message;
    if (err instanceof SyntaxError) return 'the file is not valid JSON';
    if (err instanceof TypeError) return 'the file is not valid UTF-8 text';
    const msg = (err as Error)?.message ?? '';
    if (/pixel limit/i.test(msg)) return `the image is too large (more than ${MAX_PIXELS / 1e6} megapixels)`;
    return 'the file could not be read';
  }
  return null;
}
