// The design document's schema (zod): what the editor may save and the renderers may draw.
// validateDocument names the first bad field by its path, e.g. "pages.0.layers.2.fontSize".
import { z } from 'zod';
import { BLEED_RANGE_MM, BUNDLED_FONTS, FORMATS, type DesignDocument, type Format } from './types';

/** Limits that keep a document (and its render) bounded. */
export const DOC_LIMITS = {
  pages: 20,
  layersPerPage: 200,
  textLength: 5000,
  srcLength: 2048,
  /** data: URLs are accepted for small pictures only (≈ 3 MB of base64). */
  dataUrlLength: 4_000_000,
  /** Layers may reach well outside the page (to be moved back in), not arbitrarily far. */
  coordinate: 10_000,
} as const;

const FORMAT_NAMES = Object.keys(FORMATS) as [Format, ...Format[]];

const colour = z
  .string({ error: 'must be a colour' })
  .max(64, 'is too long')
  .regex(/^(#[0-9a-fA-F]{3,8}|transparent|rgba?\([\d.,\s%]+\)|[a-zA-Z]{3,20})$/, 'must be a colour such as #ff0080');

const mm = (what = 'a number') => z.number({ error: `must be ${what}` }).finite(`must be ${what}`);
const coordinate = mm().min(-DOC_LIMITS.coordinate, 'is too far off the page').max(DOC_LIMITS.coordinate, 'is too far off the page');
const size = mm('a positive number').positive('must be more than 0').max(DOC_LIMITS.coordinate, 'is too large');

/** Our uploaded /files/… address, an http(s) URL or a data:image URL. */
export function isImageSource(value: string): boolean {
  if (value.startsWith('data:')) return /^data:image\/(png|jpeg|webp|gif|svg\+xml);base64,[A-Za-z0-9+/=\s]*$/.test(value) && value.length <= DOC_LIMITS.dataUrlLength;
  if (value.length > DOC_LIMITS.srcLength) return false;
  if (value.startsWith('/files/')) return !value.includes('..');
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const imageSource = z.string({ error: 'must be an image address' }).refine(isImageSource, 'must be an uploaded /files/… address, an http(s) URL or a data:image URL');

const fieldBinding = z.object({
  property: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(100, 'is too long (100 characters at most)'),
  sample: z.string({ error: 'must be text' }).max(DOC_LIMITS.dataUrlLength, 'is too long'),
  maxLength: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(DOC_LIMITS.textLength, 'is too large').optional(),
  fit: z.enum(['shrink', 'clip'], { error: 'must be shrink or clip' }),
});

const layerBase = {
  id: z.string({ error: 'must be text' }).min(1, 'is required').max(100, 'is too long'),
  name: z.string({ error: 'must be text' }).max(200, 'is too long'),
  x: coordinate,
  y: coordinate,
  width: size,
  height: size,
  rotation: mm().min(-360, 'must be between -360 and 360').max(360, 'must be between -360 and 360'),
  opacity: mm().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'),
  locked: z.boolean({ error: 'must be true or false' }).optional(),
  field: fieldBinding.optional(),
};

const textLayer = z.object({
  ...layerBase,
  type: z.literal('text'),
  text: z.string({ error: 'must be text' }).max(DOC_LIMITS.textLength, `is too long (${DOC_LIMITS.textLength} characters at most)`),
  fontFamily: z.enum(BUNDLED_FONTS, { error: `must be one of ${BUNDLED_FONTS.join(', ')}` }),
  fontSize: mm().min(1, 'must be at least 1 pt').max(1000, 'must be at most 1000 pt'),
  fontWeight: z.union([z.literal(400), z.literal(700)], { error: 'must be 400 or 700' }),
  color: colour,
  align: z.enum(['left', 'center', 'right'], { error: 'must be left, center or right' }),
  lineHeight: mm().min(0.5, 'must be between 0.5 and 5').max(5, 'must be between 0.5 and 5'),
});

const imageLayer = z.object({
  ...layerBase,
  type: z.literal('image'),
  src: imageSource,
  fit: z.enum(['cover', 'contain'], { error: 'must be cover or contain' }),
});

const rectLayer = z.object({
  ...layerBase,
  type: z.literal('rect'),
  fill: colour,
  stroke: colour.optional(),
  strokeWidth: mm().min(0, 'must be 0 or more').max(100, 'is too large').optional(),
  radius: mm().min(0, 'must be 0 or more').max(DOC_LIMITS.coordinate, 'is too large').optional(),
});

const layer = z.discriminatedUnion('type', [textLayer, imageLayer, rectLayer], { error: 'must be a text, image or rect layer' });

const page = z.object({
  id: z.string({ error: 'must be text' }).min(1, 'is required').max(100, 'is too long'),
  name: z.string({ error: 'must be text' }).max(100, 'is too long'),
  background: colour,
  layers: z.array(layer, { error: 'must be a list' }).max(DOC_LIMITS.layersPerPage, `has too many layers (${DOC_LIMITS.layersPerPage} at most)`),
});

export const designDocumentSchema = z
  .object({
    version: z.literal(1, { error: 'must be 1' }),
    format: z.enum(FORMAT_NAMES, { error: `must be one of ${FORMAT_NAMES.join(', ')}` }),
    bleed: z
      .number({ error: 'must be a number of millimetres' })
      .min(BLEED_RANGE_MM.min, `must be at least ${BLEED_RANGE_MM.min} mm`)
      .max(BLEED_RANGE_MM.max, `must be at most ${BLEED_RANGE_MM.max} mm`)
      .optional(),
    pages: z.array(page, { error: 'must be a list' }).min(1, 'must have at least one page').max(DOC_LIMITS.pages, 'has too many pages'),
  })
  .superRefine((doc, ctx) => {
    const expected = FORMATS[doc.format].pageNames.length;
    if (doc.pages.length !== expected) {
      ctx.addIssue({ code: 'custom', path: ['pages'], message: `must have ${expected} page${expected === 1 ? '' : 's'} for ${doc.format}` });
    }
    doc.pages.forEach((p, pageIndex) => {
      const seen = new Set<string>();
      p.layers.forEach((l, layerIndex) => {
        if (seen.has(l.id)) ctx.addIssue({ code: 'custom', path: ['pages', pageIndex, 'layers', layerIndex, 'id'], message: 'is used by another layer of the page' });
        seen.add(l.id);
      });
    });
  });

export type ValidationResult = { ok: true; doc: DesignDocument } | { ok: false; path: string; message: string };

/** Checks a design document; on failure gives the first bad field's path ("pages.0.layers.2.fontSize") and what is wrong. */
export function validateDocument(value: unknown): ValidationResult {
  const result = designDocumentSchema.safeParse(value);
  if (result.success) return { ok: true, doc: result.data as DesignDocument };
  const issue = result.error.issues[0];
  return { ok: false, path: issue.path.map(String).join('.') || '(document)', message: issue.message };
}

/** "pages.0.layers.2.fontSize: must be at least 1 pt" — for error messages. */
export function describeInvalid(result: { path: string; message: string }): string {
  return `${result.path}: ${result.message}`;
}
