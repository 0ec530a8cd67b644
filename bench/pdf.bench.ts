// One benchmark scenario, run in its own process by bench/run.ts so its peak RSS is its own:
//   tsx bench/pdf.bench.ts <ours|pdf-lib|cached> <png|jpeg> <dir with page-1..4.{png,jpg}>
// Prints one JSON line: PDFs/second, ms per PDF, peak RSS, longest event-loop stall.
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { CARD_PRINT_SIZE, buildPrintPdf, closePdfWorkers, configurePdf } from '../server/src/modules/pdf/printPdf';
import { pageBoxes } from '../server/src/modules/pdf/tasks';

/** A card page (A5 + bleed), the size both engines make. */
const PAGE = pageBoxes(CARD_PRINT_SIZE);
/** Ours is a dated, named PDF/X-4 file; the same owner every run, as a job's rebuilds are. */
const FILE = { owner: 'bench', title: 'Benchmark card', createdAt: '2026-01-01T00:00:00Z' };

export type Engine = 'ours' | 'pdf-lib' | 'cached';
export type Format = 'png' | 'jpeg';

export interface ScenarioResult {
  engine: Engine;
  format: Format;
  iterations: number;
  pdfsPerSecond: number;
  msPerPdf: number;
  pdfBytes: number;
  peakRssMb: number;
  maxLoopStallMs: number;
}

/** The naive baseline: bare pdf-lib, as the first version of buildPrintPdf did it. */
async function pdfLibBaseline(pages: Buffer[], format: Format): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const bytes of pages) {
    const image = format === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    doc.addPage([PAGE.width, PAGE.height]).drawImage(image, { x: 0, y: 0, width: PAGE.width, height: PAGE.height });
  }
  return doc.save();
}

export async function runScenario(engine: Engine, format: Format, pages: Buffer[], budgetMs: number, minIterations = 3, maxIterations = 200): Promise<ScenarioResult> {
  configurePdf({ timeoutMs: 10 * 60_000 });
  const build = engine === 'pdf-lib' ? () => pdfLibBaseline(pages, format) : () => buildPrintPdf(pages, { file: FILE, cache: engine === 'cached' });
  let peak = process.memoryUsage().rss;
  // A 5 ms tick: its lateness is how long the event loop was blocked (other requests would wait as long).
  let last = performance.now();
  let measuring = false;
  let maxStall = 0;
  const sampler = setInterval(() => {
    const now = performance.now();
    if (measuring) maxStall = Math.max(maxStall, now - last - 5);
    last = now;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const yieldToLoop = () => new Promise((resolve) => setTimeout(resolve, 6));
  // Warm-up (JIT, worker start; for "cached" this is the one real build).
  const first = await build();
  await yieldToLoop();
  measuring = true;
  let iterations = 0;
  let busy = 0;
  while (iterations < maxIterations && (iterations < minIterations || busy < budgetMs)) {
    const t = performance.now();
    await build();
    busy += performance.now() - t;
    iterations++;
    await yieldToLoop(); // lets the tick observe any stall; not counted in the time
  }
  measuring = false;
  clearInterval(sampler);
  const elapsed = busy;
  const maxRss = process.resourceUsage().maxRSS * 1024;
  await closePdfWorkers();
  return {
    engine,
    format,
    iterations,
    pdfsPerSecond: (iterations * 1000) / elapsed,
    msPerPdf: elapsed / iterations,
    pdfBytes: first.byteLength,
    peakRssMb: Math.max(peak, maxRss) / 1024 / 1024,
    maxLoopStallMs: Math.max(0, maxStall),
  };
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('pdf.bench.ts')) {
  const [engine, format, dir, budget] = process.argv.slice(2) as [Engine, Format, string, string?];
  if (!engine || !format || !dir) {
    console.error('usage: tsx bench/pdf.bench.ts <ours|pdf-lib|cached> <png|jpeg> <dir> [budgetMs]');
    process.exit(2);
  }
  const ext = format === 'png' ? 'png' : 'jpg';
  const pages = [1, 2, 3, 4].map((i) => fs.readFileSync(path.join(dir, `page-${i}.${ext}`)));
  const result = await runScenario(engine, format, pages, Number(budget ?? 8000));
  console.log(JSON.stringify(result));
}
