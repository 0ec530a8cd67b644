// The docs' example press sheet: seeds the demo in a throwaway data directory, batches its card
// jobs that are ready to print (POST /api/batches), downloads the batch's sheets as an operator
// would (GET /api/batches/:id/pdf) and renders the cover and the first sheet's front and back side
// by side with pdftoppm (the cover's blank back, page 2, is left out of the picture).
//
//   npx tsx scripts/example-sheet.ts [out.png]     (default docs/images/batch-sheet-example.png)
//
// Needs poppler-utils (pdftoppm). Run it again whenever the imposition changes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { withDemoApp } from './lib/demoApp';

const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs/images/batch-sheet-example.png'));
/** Pixels per inch of the picture: an SRA3 sheet about 500 px wide. */
const PICTURE_PPI = 40;

async function batchOfDemoCards(dataDir: string): Promise<{ pdf: Buffer; number: number; jobs: number }> {
  return withDemoApp(dataDir, 'example-sheet', async ({ base, headers, siteId }) => {
    const list = (await (await fetch(`${base}/api/print-jobs?productType=Card&isPrinted=0&readyForPrint=1&clientId=${siteId}&pageSize=100`, { headers })).json()) as { data: { list: Array<{ id: number }> } };
    const jobIds = list.data.list.map((j) => j.id).slice(0, 4);
    if (!jobIds.length) throw new Error('The demo has no card job ready to print');
    const made = await fetch(`${base}/api/batches`, { method: 'POST', headers, body: JSON.stringify({ jobIds }) });
    if (!made.ok) throw new Error(`The batch could not be made: ${made.status} ${await made.text()}`);
    const batch = ((await made.json()) as { data: { id: number; number: number } }).data;
    const res = await fetch(`${base}/api/batches/${batch.id}/pdf`, { headers });
    if (!res.ok) throw new Error(`The sheets could not be made: ${res.status} ${await res.text()}`);
    return { pdf: Buffer.from(await res.arrayBuffer()), number: batch.number, jobs: jobIds.length };
  });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-example-sheet-'));
  try {
    const { pdf, number, jobs } = await batchOfDemoCards(dataDir);
    const pdfPath = path.join(dataDir, 'batch.pdf');
    fs.writeFileSync(pdfPath, pdf);
    const pages = (
      [
        ['cover', 1],
        ['front', 3],
        ['back', 4],
      ] as const
    ).map(([name, page]) => {
      const file = path.join(dataDir, name);
      execFileSync('pdftoppm', ['-f', String(page), '-l', String(page), '-r', String(PICTURE_PPI), '-png', '-singlefile', pdfPath, file]);
      return `${file}.png`;
    });
    const { width, height } = await sharp(pages[0]).metadata();
    const gap = 16;
    const picture = await sharp({ create: { width: 3 * width! + 4 * gap, height: height! + 2 * gap, channels: 3, background: '#9e9e9e' } })
      .composite(pages.map((input, i) => ({ input, left: gap + i * (width! + gap), top: gap })))
      .png()
      .toBuffer();
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, picture);
    console.log(`${path.relative(root, out)}: batch ${number} of ${jobs} demo cards — cover, sheet 1 front, sheet 1 back`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
// As main.ts does on shutdown: the app's own timers would keep the process alive.
process.exit(0);
