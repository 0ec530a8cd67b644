// Reading imposed sheets back as a printer and a scanner would: a page rendered by pdftoppm, a
// Code 128 decoded by ZXing from part of it, a pixel's colour, a page's text (pdftotext).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import sharp from 'sharp';
import type { Rect } from '../src/modules/batches/sheets';

/** pdftoppm's PNG of one page with `options`, written to a folder of its own and read back. */
function pdftoppm(file: string, page: number, dpi: number, options: string[]): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-reader-'));
  try {
    const out = path.join(dir, 'page');
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-f', String(page), '-l', String(page), ...options, '-singlefile', file, out]);
    return fs.readFileSync(`${out}.png`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One page (from 1) of a PDF file as a PNG at `dpi`. */
export function render(file: string, page: number, dpi: number): Buffer {
  return pdftoppm(file, page, dpi, []);
}

/** A part of one page (mm from its bottom-left) as a PNG at `dpi`: only that part is drawn. */
export function renderArea(file: string, page: number, dpi: number, pageHeightMm: number, area: Rect): Buffer {
  const px = (mm: number) => Math.round((mm * dpi) / 25.4);
  const crop = ['-x', px(area.x), '-y', px(pageHeightMm - area.y - area.height), '-W', px(area.width), '-H', px(area.height)].map(String);
  return pdftoppm(file, page, dpi, crop);
}

/** The barcode in a part of a page, drawn alone at 300 dpi; null when none can be read (an empty slot). */
export async function barcodeAt(file: string, page: number, pageHeightMm: number, area: Rect): Promise<string | null> {
  const png = renderArea(file, page, 300, pageHeightMm, area);
  return barcodeOrNull(png, 300, area.height, { ...area, x: 0, y: 0 });
}

/** The text of one page, as pdftotext reads it. */
export function pageText(file: string, page: number): string {
  return execFileSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' });
}

/** The barcode in a part of a rendered page (mm from the page's bottom-left), read by ZXing; throws when there is none. */
export async function readBarcode(png: Buffer, dpi: number, sheetHeightMm: number, area: Rect): Promise<string> {
  const px = (mm: number) => Math.round((mm * dpi) / 25.4);
  const { data, info } = await sharp(png)
    .extract({ left: px(area.x), top: px(sheetHeightMm - area.y - area.height), width: px(area.width), height: px(area.height) })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const source = new RGBLuminanceSource(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  reader.setHints(hints);
  return reader.decode(new BinaryBitmap(new HybridBinarizer(source))).getText();
}

/** The barcode there, or null when none can be read (an empty slot). */
export const barcodeOrNull = (png: Buffer, dpi: number, sheetHeightMm: number, area: Rect): Promise<string | null> => readBarcode(png, dpi, sheetHeightMm, area).catch(() => null);

export async function pixel(png: Buffer, dpi: number, sheetHeightMm: number, at: [number, number]): Promise<[number, number, number]> {
  const px = (mm: number) => Math.round((mm * dpi) / 25.4);
  const { data } = await sharp(png).extract({ left: px(at[0]), top: px(sheetHeightMm - at[1]), width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return [data[0], data[1], data[2]];
}

/** A colour as three 0/1 digits ("100": red). */
export const colourOf = (c: [number, number, number]) => c.map((v) => Math.round(v / 255)).join('');
