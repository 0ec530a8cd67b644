// A card's print file as preflight accepts it: 4 pages of A5 + 3 mm bleed, each with its A5 TrimBox.
import { PDFDocument } from 'pdf-lib';

export async function cardPrintFilePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const bleed = (3 * 72) / 25.4;
  for (let i = 0; i < 4; i++) doc.addPage([419.53 + 2 * bleed, 595.28 + 2 * bleed]).setTrimBox(bleed, bleed, 419.53, 595.28);
  return Buffer.from(await doc.save());
}
