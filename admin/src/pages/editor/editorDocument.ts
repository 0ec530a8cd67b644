// The document the editor opens for a design: its saved document (validated), else a blank one of
// its product type's format — with the design's existing artwork pages, if any, as image layers.
import { addLayer, createImageLayer, formatForProductType, newDocument } from '../../../../common/design-doc/model';
import { formatSpec } from '../../../../common/design-doc/render';
import type { DesignDocument } from '../../../../common/design-doc/types';
import { describeInvalid, isImageSource, validateDocument } from '../../../../common/design-doc/validate';
import type { Design } from '../../../../common/api/printProduction';

export type OpenedDocument = { ok: true; doc: DesignDocument; imported: boolean } | { ok: false; error: string };

export function blankDocumentFor(design: Pick<Design, 'productType'>): DesignDocument {
  return newDocument(formatForProductType(design.productType));
}

export function documentForDesign(design: Pick<Design, 'productType' | 'data'>): OpenedDocument {
  const saved = design.data?.document;
  if (saved !== undefined && saved !== null) {
    const result = validateDocument(saved);
    return result.ok ? { ok: true, doc: result.doc, imported: false } : { ok: false, error: `The saved design cannot be opened: ${describeInvalid(result)}` };
  }
  let doc = blankDocumentFor(design);
  const spec = formatSpec(doc);
  const artwork = (design.data?.artworkUrls ?? []).filter((u): u is string => typeof u === 'string' && isImageSource(u));
  artwork.slice(0, doc.pages.length).forEach((src, page) => {
    doc = addLayer(doc, page, createImageLayer(doc.format, src, { name: 'Artwork', x: 0, y: 0, width: spec.width, height: spec.height, fit: 'cover' }));
  });
  return { ok: true, doc, imported: artwork.length > 0 };
}
