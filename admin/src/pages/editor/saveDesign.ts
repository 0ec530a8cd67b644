// Saving a design from the editor: its document, then its print artwork made in the browser with
// the shared renderer (every page at 300 dpi with bleed, PNG), uploaded through signed URLs, and a
// preview of page 1 — stored as data.artworkUrls and image.
import { describeInvalid, validateDocument } from '../../../../common/design-doc/validate';
import type { DesignDocument } from '../../../../common/design-doc/types';
import type { Id } from '../../../../common/api/envelope';
import type { Design } from '../../../../common/api/printProduction';
import type { EditorApi } from './editorApi';
import { renderPreview, renderPrintPage } from './renderPages';

export type SaveProgress =
  | { step: 'document' }
  | { step: 'render'; page: number; pages: number }
  | { step: 'preview' }
  | { step: 'artwork' };

export function progressText(p: SaveProgress): string {
  switch (p.step) {
    case 'document':
      return 'Saving the design…';
    case 'render':
      return `Making print page ${p.page} of ${p.pages}…`;
    case 'preview':
      return 'Making the preview…';
    case 'artwork':
      return 'Saving the artwork…';
  }
}

/** A save that stored the document but not its artwork says so: the design itself is safe. */
export class ArtworkError extends Error {
  constructor(cause: unknown) {
    super(`The design was saved, but its print images could not be made: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ArtworkError';
  }
}

const safeName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'page';

export async function saveDesignWithArtwork(
  client: EditorApi,
  designId: Id,
  doc: DesignDocument,
  onProgress: (p: SaveProgress) => void = () => undefined,
): Promise<Design> {
  const valid = validateDocument(doc);
  if (!valid.ok) throw new Error(`The design cannot be saved: ${describeInvalid(valid)}`);

  onProgress({ step: 'document' });
  await client.saveDesign({ id: designId, data: { document: valid.doc } });

  try {
    const folder = `designs/${designId}`;
    const artworkUrls: string[] = [];
    for (let i = 0; i < doc.pages.length; i++) {
      onProgress({ step: 'render', page: i + 1, pages: doc.pages.length });
      const png = await renderPrintPage(doc, i);
      artworkUrls.push(await client.upload(png, `${folder}/${i + 1}-${safeName(doc.pages[i].name)}.png`, 'image/png'));
    }
    onProgress({ step: 'preview' });
    const image = await client.upload(await renderPreview(doc), `${folder}/preview.png`, 'image/png');
    onProgress({ step: 'artwork' });
    return await client.saveDesign({ id: designId, data: { artworkUrls }, image });
  } catch (error) {
    throw new ArtworkError(error);
  }
}
