// One imposition benchmark step, run in its own process by bench/run.ts so its peak RSS is its own:
//   tsx bench/impose.bench.ts single <dir> <cards>   the cards' single-job print files (buildPrintPdf, 4 JPEG
//                                                    pages of 300 ppi artwork each), written to <dir>
//   tsx bench/impose.bench.ts impose <dir> <cards>   those files imposed 4-up on SRA3 (imposeBatch), one file
//                                                    read at a time
// Prints one JSON line: seconds, peak RSS, bytes written.
import fs from 'node:fs';
import path from 'node:path';
import { artworkPages } from './artwork';
import { buildPrintPdf, closePdfWorkers, configurePdf } from '../server/src/modules/pdf/printPdf';
import { imposeBatch, type ImposeJob } from '../server/src/modules/batches/impose';

export interface ImposeStepResult {
  step: 'single' | 'impose';
  cards: number;
  seconds: number;
  peakRssMb: number;
  bytes: number;
  sheets?: number;
}

const [step, dir, count] = process.argv.slice(2);
const cards = Number(count ?? 100);
const fileOf = (i: number) => path.join(dir, `job-${i + 1}.pdf`);
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);

async function single(): Promise<Omit<ImposeStepResult, 'seconds' | 'peakRssMb'>> {
  configurePdf({ timeoutMs: 10 * 60_000, cacheMaxBytes: 0 });
  const { jpeg } = await artworkPages(4);
  let bytes = 0;
  for (let i = 0; i < cards; i++) {
    const pdf = await buildPrintPdf(jpeg, { file: { owner: `job ${i + 1}`, title: `Card ${i + 1}`, createdAt: '2026-11-25T09:00:00.000Z' }, cache: false });
    fs.writeFileSync(fileOf(i), pdf);
    bytes += pdf.length;
  }
  await closePdfWorkers();
  return { step: 'single', cards, bytes };
}

async function impose(): Promise<Omit<ImposeStepResult, 'seconds' | 'peakRssMb'>> {
  const jobs: ImposeJob[] = Array.from({ length: cards }, (_, i) => ({ jobId: i + 1, orderName: `#${1000 + Math.floor(i / 3)}`, productName: 'Birthday card', quantity: 1, itemNumber: (i % 3) + 1, itemCount: 3 }));
  const out = path.join(dir, `batch-${cards}.pdf`);
  const result = await imposeBatch({ number: 1, createdAt: '2026-11-25T09:00:00.000Z', createdByName: 'Bench', jobs }, { trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 }, async (job) => fs.promises.readFile(fileOf(job.jobId - 1)), out);
  const bytes = fs.statSync(out).size;
  fs.rmSync(out);
  return { step: 'impose', cards, bytes, sheets: result.sheets };
}

const started = performance.now();
const made = step === 'single' ? await single() : await impose();
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
// The kernel's own high-water mark catches peaks between two samples.
peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
console.log(JSON.stringify({ ...made, seconds: Math.round(seconds * 100) / 100, peakRssMb: Math.round(peak / 1024 / 1024) } satisfies ImposeStepResult));
