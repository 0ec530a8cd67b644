// One imposition benchmark step, run in its own process by bench/run.ts so its peak RSS is its own:
//   tsx bench/impose.bench.ts single <dir> <cards>   the cards' single-job print files (buildPrintPdf, 4 JPEG
//                                                    pages of 300 ppi artwork each), written to <dir>
//   tsx bench/impose.bench.ts impose <dir> <cards>   those files imposed 4-up on SRA3 (imposeBatch), one file
//                                                    read at a time
//   tsx bench/impose.bench.ts scale <dir> 20,60,120  batches of these many jobs imposed one after the other in
//                                                    one warmed-up process: the cost of a sheet at each size
// Prints one JSON line: seconds, peak RSS, bytes written (scale: a list of {cards, sheets, seconds}).
import fs from 'node:fs';
import path from 'node:path';
import { artworkPages } from './artwork';
import { buildPrintPdf, closePdfWorkers, configurePdf } from '../server/src/modules/pdf/printPdf';
import { imposeBatch, type ImposeJob } from '../server/src/modules/batches/impose';

export interface ImposeStepResult {
  step: 'single' | 'impose' | 'scale';
  cards: number;
  seconds: number;
  peakRssMb: number;
  bytes: number;
  sheets?: number;
  /** scale: each batch size's sheets, wall seconds and CPU seconds (this process's and its children's). */
  sizes?: Array<{ cards: number; sheets: number; seconds: number; cpuSeconds: number }>;
}

const [step, dir, count] = process.argv.slice(2);
const cards = step === 'scale' ? 0 : Number(count ?? 100);
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

/** A batch of `n` cards (the files made by `single`, reused in turn when there are fewer) imposed to a file, then removed. */
async function imposeCards(n: number): Promise<{ bytes: number; sheets: number }> {
  const made = fs.readdirSync(dir).filter((f) => /^job-\d+\.pdf$/.test(f)).length;
  const jobs: ImposeJob[] = Array.from({ length: n }, (_, i) => ({ jobId: i + 1, orderName: `#${1000 + Math.floor(i / 3)}`, productName: 'Birthday card', quantity: 1, itemNumber: (i % 3) + 1, itemCount: 3 }));
  const out = path.join(dir, `batch-${n}.pdf`);
  const result = await imposeBatch({ number: 1, createdAt: '2026-11-25T09:00:00.000Z', createdByName: 'Bench', jobs }, { trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 }, async (job) => fs.promises.readFile(fileOf((job.jobId - 1) % made)), out);
  const bytes = fs.statSync(out).size;
  fs.rmSync(out);
  return { bytes, sheets: result.sheets };
}

async function impose(): Promise<Omit<ImposeStepResult, 'seconds' | 'peakRssMb'>> {
  return { step: 'impose', cards, ...(await imposeCards(cards)) };
}

/**
 * CPU seconds used so far by this process and the children it waited for (a tool the imposition
 * runs): what a sheet costs, whatever else the shared cores are doing.
 */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    // /proc/self/stat: cutime and cstime (fields 16 and 17) in clock ticks, after the command's ")".
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    /* not Linux: the process's own time */
  }
  return (own.user + own.system) / 1e6 + children;
}

/** Each size after a warm-up batch (the code and fonts loaded once), best of two runs. */
async function scale(): Promise<Omit<ImposeStepResult, 'seconds' | 'peakRssMb'>> {
  const counts = (count ?? '20,60,120').split(',').map(Number);
  await imposeCards(4);
  const sizes: NonNullable<ImposeStepResult['sizes']> = [];
  let bytes = 0;
  for (const n of counts) {
    let best = Infinity;
    let bestCpu = Infinity;
    let sheets = 0;
    for (let run = 0; run < 2; run++) {
      const t = performance.now();
      const cpu = cpuSeconds();
      const made = await imposeCards(n);
      best = Math.min(best, (performance.now() - t) / 1000);
      bestCpu = Math.min(bestCpu, cpuSeconds() - cpu);
      sheets = made.sheets;
      bytes = Math.max(bytes, made.bytes);
    }
    sizes.push({ cards: n, sheets, seconds: Math.round(best * 1000) / 1000, cpuSeconds: Math.round(bestCpu * 1000) / 1000 });
  }
  return { step: 'scale', cards: Math.max(...counts), bytes, sizes };
}

const started = performance.now();
const made = step === 'single' ? await single() : step === 'scale' ? await scale() : await impose();
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
// The kernel's own high-water mark catches peaks between two samples.
peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
console.log(JSON.stringify({ ...made, seconds: Math.round(seconds * 100) / 100, peakRssMb: Math.round(peak / 1024 / 1024) } satisfies ImposeStepResult));
