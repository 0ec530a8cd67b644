// The example print page of docs/floor-in-detail.md: seeds the demo in a throwaway data directory, downloads the
// Birthday Balloons job's print file as an operator would (POST /api/pdf/from-print-job), renders
// its first page with pdftoppm and marks the boxes the file declares (pdfinfo -box) on it.
//
//   npx tsx scripts/example-page.ts [out.png]     (default docs/images/print-file-example.png)
//
// Needs poppler-utils (pdftoppm, pdfinfo). The picture shows whatever the print file holds, so run
// it again whenever the print file changes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { withDemoApp } from './lib/demoApp';

const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs/images/print-file-example.png'));
const DESIGN = 'Birthday Balloons';
/** Pixels per inch of the picture: the card with its bleed about 600 px wide. */
const PICTURE_PPI = 100;

type Box = { x0: number; y0: number; x1: number; y1: number };

/** The page-1 boxes of a PDF, in points, as pdfinfo reads them. */
function boxesOf(pdfPath: string): Record<'MediaBox' | 'CropBox' | 'BleedBox' | 'TrimBox' | 'ArtBox', Box> {
  const text = execFileSync('pdfinfo', ['-box', '-f', '1', '-l', '1', pdfPath], { encoding: 'utf8' });
  const boxes: Record<string, Box> = {};
  for (const m of text.matchAll(/^(?:Page\s+1\s+)?(MediaBox|CropBox|BleedBox|TrimBox|ArtBox):\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)/gm)) {
    boxes[m[1]] = { x0: Number(m[2]), y0: Number(m[3]), x1: Number(m[4]), y1: Number(m[5]) };
  }
  if (!boxes.MediaBox) throw new Error(`pdfinfo printed no MediaBox:\n${text}`);
  return boxes as ReturnType<typeof boxesOf>;
}

const mm = (pt: number) => (pt * 25.4) / 72;
const size = (b: Box) => `${mm(b.x1 - b.x0).toFixed(1)} × ${mm(b.y1 - b.y0).toFixed(1)} mm`;

async function printFileOfDemoCard(dataDir: string): Promise<Buffer> {
  return withDemoApp(dataDir, 'example-page', async ({ base, headers }) => {
    const list = (await (await fetch(`${base}/api/print-jobs?productType=Card&pageSize=100`, { headers })).json()) as { data: { list: Array<{ id: number; productName: string }> } };
    const job = list.data.list.find((j) => j.productName === DESIGN);
    if (!job) throw new Error(`The demo has no ${DESIGN} job`);
    const res = await fetch(`${base}/api/pdf/from-print-job`, { method: 'POST', headers, body: JSON.stringify({ id: job.id }) });
    if (!res.ok) throw new Error(`The print file could not be made: ${res.status} ${await res.text()}`);
    return Buffer.from(await res.arrayBuffer());
  });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-example-page-'));
  try {
    const pdfPath = path.join(dataDir, 'print-file.pdf');
    fs.writeFileSync(pdfPath, await printFileOfDemoCard(dataDir));
    const boxes = boxesOf(pdfPath);
    execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', String(PICTURE_PPI), '-png', '-singlefile', pdfPath, path.join(dataDir, 'page')]);
    const page = path.join(dataDir, 'page.png');
    const { width, height } = await sharp(page).metadata();

    // Boxes in the picture's pixels: PDF points from the MediaBox's bottom-left, the picture from its top-left.
    const media = boxes.MediaBox;
    const k = width! / (media.x1 - media.x0);
    const rect = (b: Box, colour: string, dash: string) =>
      `<rect x="${(b.x0 - media.x0) * k + 1}" y="${(media.y1 - b.y1) * k + 1}" width="${(b.x1 - b.x0) * k - 2}" height="${(b.y1 - b.y0) * k - 2}" fill="none" stroke="${colour}" stroke-width="2" stroke-dasharray="${dash}"/>`;
    const trim = boxes.TrimBox ?? media;
    const bleed = boxes.BleedBox ?? media;
    const label = (y: number, colour: string, text: string) => `<text x="${width! + 12}" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="14" fill="${colour}">${text}</text>`;
    const legend = 330;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width! + legend}" height="${height}">
${rect(bleed, '#d500f9', '10 6')}${rect(trim, '#00b8d4', '4 4')}
${label(28, '#d500f9', `BleedBox: ${size(bleed)}`)}${label(50, '#424242', `MediaBox: ${size(media)}`)}
${label(72, '#00b8d4', `TrimBox (finished): ${size(trim)}`)}
${label(100, '#616161', `Rendered at ${PICTURE_PPI} ppi with pdftoppm;`)}${label(120, '#616161', 'outside the TrimBox is the bleed,')}${label(140, '#616161', 'cut off by the guillotine.')}</svg>`;
    const marked = await sharp({ create: { width: width! + legend, height: height!, channels: 3, background: '#ffffff' } })
      .composite([{ input: page, left: 0, top: 0 }, { input: Buffer.from(svg), left: 0, top: 0 }])
      .png()
      .toBuffer();
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, marked);
    console.log(`${path.relative(root, out)}: page 1 of the ${DESIGN} print file`);
    for (const [name, b] of Object.entries(boxes)) console.log(`  ${name.padEnd(8)} ${size(b)}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
// As main.ts does on shutdown: the app's own timers would keep the process alive.
process.exit(0);
