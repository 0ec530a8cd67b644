// The print PDF: exactly 4 artwork pages on A5 (148 × 210 mm = 419.53 × 595.28 pt).
import { PDFDocument } from 'pdf-lib';
import { badRequest } from '../../http/errors';

export const A5 = { width: (148 / 25.4) * 72, height: (210 / 25.4) * 72 };
export const PDF_EMPTY = 'PDF Empty';
export const ONLY_4_PAGES = 'Only support 4 pages A5';

/** The page-count rule of spec §5. */
export function assertFourPages(count: number): void {
  if (count === 0) throw badRequest(PDF_EMPTY);
  if (count !== 4) throw badRequest(ONLY_4_PAGES);
}

/** Four PNG or JPEG images → one A5 PDF, each image filling its page. */
export async function buildPrintPdf(pages: Buffer[]): Promise<Uint8Array> {
  assertFourPages(pages.length);
  const doc = await PDFDocument.create();
  for (const [i, bytes] of pages.entries()) {
    const isPng = bytes.subarray(0, 4).toString('latin1') === '\x89PNG';
    const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
    if (!isPng && !isJpeg) throw badRequest(`page ${i + 1}: artwork must be a PNG or JPEG image`);
    const image = isPng ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    doc.addPage([A5.width, A5.height]).drawImage(image, { x: 0, y: 0, width: A5.width, height: A5.height });
  }
  return doc.save();
}
