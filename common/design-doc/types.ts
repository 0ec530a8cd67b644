// The design document: what the editor saves and what both renderers (browser and server) draw.
// Shared by admin/ (the editor) and server/ (personalised rendering). Units are millimetres,
// measured from the top-left corner of the trim box; the bleed lies outside it (negative
// coordinates reach into it).

/** The product types, the one list every form, schema and filter takes its choices from. An E-card is
 * e-mailed to its recipient, never printed (see the server's production/designForLine). */
export const PRODUCT_TYPES = ['Card', 'Mug', 'Poster', 'E-card'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** The product type that is e-mailed, never printed. */
export const isEcard = (productType: string | null | undefined): boolean => productType === 'E-card';

export type Format = 'card-a5' | 'mug-wrap' | 'poster-a3' | 'poster-a2' | 'ecard';

export interface FormatSpec {
  productType: ProductType;
  /** Trim size in mm. */
  width: number;
  height: number;
  /** Bleed around the trim box, mm. */
  bleed: number;
  /** Safe-area inset inside the trim box, mm. */
  safe: number;
  /** Page names, in print order. */
  pageNames: string[];
}

export const FORMATS: Record<Format, FormatSpec> = {
  'card-a5': { productType: 'Card', width: 148, height: 210, bleed: 3, safe: 5, pageNames: ['Front', 'Inside left', 'Inside right', 'Back'] },
  'mug-wrap': { productType: 'Mug', width: 200, height: 90, bleed: 2, safe: 5, pageNames: ['Wrap'] },
  'poster-a3': { productType: 'Poster', width: 297, height: 420, bleed: 3, safe: 10, pageNames: ['Poster'] },
  'poster-a2': { productType: 'Poster', width: 420, height: 594, bleed: 3, safe: 10, pageNames: ['Poster'] },
  // Shown on a screen, never trimmed: no bleed; the safe margin keeps text off the e-mail's edge.
  ecard: { productType: 'E-card', width: 148, height: 105, bleed: 0, safe: 6, pageNames: ['Front'] },
};

/** A layer bound to an order line-item property (personalisation). */
export interface FieldBinding {
  /** The line item property name, e.g. "Recipient name" or "Photo". */
  property: string;
  /** Sample value shown in the editor and used when the order lacks the property. */
  sample: string;
  /** Text fields: most characters accepted. */
  maxLength?: number;
  /** Text too long for its box: shrink the font until it fits, or clip it. */
  fit: 'shrink' | 'clip';
}

interface LayerBase {
  id: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Degrees, clockwise, about the layer's centre. */
  rotation: number;
  opacity: number;
  locked?: boolean;
  field?: FieldBinding;
}

export interface TextLayer extends LayerBase {
  type: 'text';
  text: string;
  fontFamily: string;
  /** Points (1 pt = 25.4/72 mm). */
  fontSize: number;
  fontWeight: 400 | 700;
  color: string;
  align: 'left' | 'center' | 'right';
  lineHeight: number;
}

export interface ImageLayer extends LayerBase {
  type: 'image';
  /** Our /files/… URL or a data: URL. */
  src: string;
  fit: 'cover' | 'contain';
}

export interface RectLayer extends LayerBase {
  type: 'rect';
  fill: string;
  stroke?: string;
  strokeWidth?: number;
  radius?: number;
}

export type Layer = TextLayer | ImageLayer | RectLayer;

export interface Page {
  id: string;
  name: string;
  background: string;
  /** Bottom to top. */
  layers: Layer[];
}

export interface DesignDocument {
  version: 1;
  format: Format;
  /** This design's bleed in mm, when it differs from its format's (FORMATS[format].bleed). Read it through formatSpec(doc). */
  bleed?: number;
  pages: Page[];
}

/** The bleed a design may set, mm (0: artwork printed to the edge with none). */
export const BLEED_RANGE_MM = { min: 0, max: 10 } as const;

/** Fonts bundled with Presswork (served from the app, never a CDN). */
export const BUNDLED_FONTS = ['Raleway', 'Lora', 'Pacifico', 'Roboto Slab'] as const;

export const MM_PER_PT = 25.4 / 72;
export const pxPerMm = (dpi: number) => dpi / 25.4;
