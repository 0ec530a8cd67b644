// npm run bench: every benchmark in order, each figure against a baseline measured in the same run, then
// one summary table (figure, baseline, ratio, aim, met?) and the machine it ran on.
//   npm run bench                         all scenarios (about 6 minutes on 2 shared cores)
//   npm run bench -- admin                one scenario (or several: -- bundle jobs startup)
//   npm run bench -- 4000                 time budget of each PDF / render scenario in ms (default 8000)
//   BENCH_ORDERS=100000 npm run bench -- orders     the order list at one size (default 100k and 1M)
// Scenarios: pdf, impose, webhooks, orders, render, bundle, jobs, startup, backup, storage, routing; `admin` = bundle + jobs;
// `tests` (npm test's own time against its aim) runs only when named;
// `attention` = orders (Needs attention is measured on the order list's database).
// Each scenario runs in its own process(es). A scenario adds rows to the summary by printing
// `BENCH_SUMMARY {"figure","value","baseline","ratio","aim","met"}` lines (bench/support.ts); for the
// webhook, order-list and render benchmarks, which print tables, the rows are read from their output.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artworkPages, PAGE } from './artwork';
import type { Engine, Format, ScenarioResult } from './pdf.bench';
import type { ImposeStepResult } from './impose.bench';
import { SUMMARY_PREFIX, type SummaryRow } from './support';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const budgetMs = Number(args.find((a) => /^\d+$/.test(a)) ?? 8000);
const ALL = ['pdf', 'impose', 'webhooks', 'orders', 'render', 'bundle', 'jobs', 'startup', 'backup', 'storage', 'routing', 'tests'] as const;
type Scenario = (typeof ALL)[number];
/** Run only when named: `npm test`'s own time is minutes long and is measured on a quiet machine. */
const ONLY_WHEN_NAMED: readonly Scenario[] = ['tests'];
const ALIASES: Record<string, Scenario[]> = { admin: ['bundle', 'jobs'], orderlist: ['orders'], 'order-list': ['orders'], attention: ['orders'], memory: ['startup'] };

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const summary: SummaryRow[] = [];

function chosen(): Scenario[] {
  const names = args.filter((a) => !/^\d+$/.test(a)).map((a) => a.toLowerCase());
  if (!names.length) return ALL.filter((s) => !ONLY_WHEN_NAMED.includes(s));
  const picked = new Set<Scenario>();
  for (const n of names) {
    const s = ALIASES[n] ?? ((ALL as readonly string[]).includes(n) ? [n as Scenario] : null);
    if (!s) {
      console.error(`unknown scenario "${n}": ${[...ALL, ...Object.keys(ALIASES)].join(', ')}`);
      process.exit(2);
    }
    s.forEach((x) => picked.add(x));
  }
  return ALL.filter((s) => picked.has(s));
}

/** Runs `tsx file args`, echoing its output; answers the output with the BENCH_SUMMARY lines taken out (and added to the summary). */
async function runTs(file: string, fileArgs: string[] = [], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, file), ...fileArgs], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith(SUMMARY_PREFIX)) summary.push(JSON.parse(line.slice(SUMMARY_PREFIX.length)) as SummaryRow);
      else {
        out += line + '\n';
        process.stdout.write(line + '\n');
      }
    }
  });
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  if (pending) {
    out += pending;
    process.stdout.write(pending);
  }
  if (code !== 0) throw new Error(`${file} ${fileArgs.join(' ')} failed (exit ${code})`);
  return out;
}

/** The rows of every console.table in a text: [{column: value}], quotes removed. */
function tables(text: string): Array<Array<Record<string, string>>> {
  const result: Array<Array<Record<string, string>>> = [];
  let header: string[] | null = null;
  let rows: Array<Record<string, string>> = [];
  const cells = (line: string) =>
    line
      .split('│')
      .slice(1, -1)
      .map((c) => c.trim().replace(/^'(.*)'$/, '$1'));
  for (const line of text.split('\n')) {
    if (line.startsWith('┌')) {
      header = null;
      rows = [];
    } else if (line.startsWith('│')) {
      if (!header) header = cells(line);
      else {
        const c = cells(line);
        rows.push(Object.fromEntries(header.map((h, i) => [h, c[i] ?? ''])));
      }
    } else if (line.startsWith('└') && header) {
      result.push(rows);
      header = null;
    }
  }
  return result;
}

const num = (s: string | undefined) => Number(String(s ?? '').replace(/[^\d.]/g, ''));
const sizeLabel = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n));

async function pdf() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-bench-'));
  console.log(`Generating 4 A5 pages of 300 dpi artwork (${PAGE.width} × ${PAGE.height} px)…`);
  const { png, jpeg } = await artworkPages(4);
  png.forEach((b, i) => fs.writeFileSync(path.join(dir, `page-${i + 1}.png`), b));
  jpeg.forEach((b, i) => fs.writeFileSync(path.join(dir, `page-${i + 1}.jpg`), b));
  const sum = (bs: Buffer[]) => bs.reduce((n, b) => n + b.length, 0);
  console.log(`  PNG (opaque RGB, 8-bit): 4 pages, ${mb(sum(png))}; JPEG (q90): 4 pages, ${mb(sum(jpeg))}`);

  const scenarios: Array<[Engine, Format]> = [
    ['pdf-lib', 'png'],
    ['ours', 'png'],
    ['cached', 'png'],
    ['pdf-lib', 'jpeg'],
    ['ours', 'jpeg'],
    ['cached', 'jpeg'],
  ];
  const results: ScenarioResult[] = [];
  for (const [engine, format] of scenarios) {
    process.stdout.write(`  running ${engine} / ${format}… `);
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/pdf.bench.ts'), engine, format, dir, String(engine === 'pdf-lib' ? budgetMs : budgetMs / 2)], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0 || !line.startsWith('{')) throw new Error(`pdf ${engine} / ${format} failed (${r.status})\n${r.stderr}`);
    const result = JSON.parse(line) as ScenarioResult;
    results.push(result);
    console.log(`${result.iterations} PDFs`);
  }
  fs.rmSync(dir, { recursive: true, force: true });

  const base = (format: Format) => results.find((r) => r.engine === 'pdf-lib' && r.format === format)!;
  const rows = results.map((r) => {
    const b = base(r.format);
    return {
      input: r.format.toUpperCase(),
      engine: r.engine === 'pdf-lib' ? 'pdf-lib embed (baseline)' : r.engine === 'ours' ? 'buildPrintPdf (no cache)' : 'buildPrintPdf (cached)',
      'PDFs/s': r.pdfsPerSecond.toFixed(r.pdfsPerSecond < 10 ? 2 : 1),
      'ms/PDF': r.msPerPdf.toFixed(1),
      'vs baseline': r.engine === 'pdf-lib' ? '1.0×' : `${(r.pdfsPerSecond / b.pdfsPerSecond).toFixed(1)}× faster`,
      'peak RSS': `${r.peakRssMb.toFixed(0)} MB`,
      'RSS vs baseline': `${(r.peakRssMb / b.peakRssMb).toFixed(2)}×`,
      'PDF size': mb(r.pdfBytes),
      'max loop stall': `${r.maxLoopStallMs.toFixed(0)} ms`,
    };
  });
  console.log('\nPrint PDF: 4 A5 pages of 300 dpi artwork ("max loop stall" = longest event-loop block while building)');
  console.table(rows);
  const out = path.join(root, 'bench/results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(
    path.join(out, `pdf-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, results }, null, 2),
  );

  const get = (engine: Engine, format: Format) => results.find((r) => r.engine === engine && r.format === format)!;
  const row = (figure: string, r: ScenarioResult, aim: string, min: number | null) => {
    const b = base(r.format);
    const x = r.pdfsPerSecond / b.pdfsPerSecond;
    summary.push({ figure, value: `${r.msPerPdf.toFixed(r.msPerPdf < 20 ? 1 : 0)} ms/PDF`, baseline: `${b.msPerPdf.toFixed(b.msPerPdf < 20 ? 1 : 0)} ms (pdf-lib)`, ratio: `${x.toFixed(1)}× faster`, aim, met: min === null ? null : x >= min });
  };
  row('Print PDF from PNG', get('ours', 'png'), '≥ 10× faster', 10);
  row('Print PDF from PNG, second download (cached)', get('cached', 'png'), '—', null);
  row('Print PDF from JPEG', get('ours', 'jpeg'), '—', null);
}

async function webhooks() {
  const before = summary.length;
  const out = await runTs('bench/webhooks.bench.ts');
  if (summary.length > before) return; // the benchmark gave its own summary rows
  const line = out
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{') && (l.includes('"rows"') || l.includes('"summary"')));
  let parsed: { rows?: Array<{ handler: string; perSecond: number; p50: number; p99: number }>; summary?: Array<Record<string, string>> } = {};
  try {
    parsed = line ? JSON.parse(line) : {};
  } catch {
    /* not ours to read */
  }
  // One row per database: {database, 'bare req/s', 'bare p50/p99 ms', 'ours req/s', 'ours p50/p99 ms', ratio, 'aim …'}.
  if (parsed.summary?.length) {
    for (const r of parsed.summary) {
      const ours = Number(r['ours req/s']);
      const bare = Number(r['bare req/s']);
      const p99 = num((r['ours p50/p99 ms'] ?? '').split('/')[1]);
      const x = ours / bare;
      summary.push({
        figure: `Webhook ingest, concurrency 32, ${r.database ?? ''} (req/s; p50 / p99)`,
        value: `${r['ours req/s']}/s; ${r['ours p50/p99 ms']} ms`,
        baseline: `${r['bare req/s']}/s; ${r['bare p50/p99 ms']} ms bare Express`,
        ratio: `${x.toFixed(2)}×`,
        aim: '≥ 0.60×, p99 < 25 ms',
        met: Number.isFinite(x) && Number.isFinite(p99) ? x >= 0.6 && p99 < 25 : null,
      });
    }
    return;
  }
  const rows = parsed.rows ?? [];
  const ours = rows.find((r) => /presswork/i.test(r.handler)) ?? rows[rows.length - 1];
  const bare = rows[0];
  if (!ours || !bare || ours === bare) {
    summary.push({ figure: 'Webhook ingest, concurrency 32', value: 'see its table', baseline: '—', ratio: '—', aim: '≥ 0.6×, p99 < 25 ms', met: null });
    return;
  }
  const x = ours.perSecond / bare.perSecond;
  summary.push({ figure: 'Webhook ingest, concurrency 32 (req/s)', value: `${ours.perSecond.toFixed(0)}/s`, baseline: `${bare.perSecond.toFixed(0)}/s bare Express`, ratio: `${x.toFixed(2)}×`, aim: '≥ 0.60×', met: x >= 0.6 });
  summary.push({ figure: 'Webhook ingest p50 / p99', value: `${ours.p50.toFixed(1)} / ${ours.p99.toFixed(1)} ms`, baseline: `${bare.p50.toFixed(1)} / ${bare.p99.toFixed(1)} ms`, ratio: `${(ours.p99 / bare.p99).toFixed(2)}× (p99)`, aim: 'p99 < 25 ms', met: ours.p99 < 25 });
}

async function orders() {
  // One database grown from the smallest size to the largest; the benchmark prints its own summary
  // rows (the order list, the header search and Needs attention at each size, and the largest/smallest ratio).
  const sizes = (process.env.BENCH_ORDERS ?? '100000,1000000')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  const before = summary.length;
  await runTs('bench/orderList.bench.ts', [sizes.join(','), '200']);
  if (summary.length === before) summary.push({ figure: `Order list at ${sizes.map(sizeLabel).join(' and ')} orders`, value: 'see its table', baseline: '—', ratio: '—', aim: 'same cost at both sizes', met: null });
}

async function render() {
  const before = summary.length;
  const out = await runTs('bench/render.bench.ts', [String(budgetMs)]);
  if (summary.length > before) return;
  const t = tables(out).find((rows) => rows.some((r) => 'cards/s' in r));
  if (!t || t.length < 2) return;
  const [b, one] = t;
  summary.push({ figure: 'Personalised 4-page card render (cards/s)', value: `${one['cards/s']}/s`, baseline: `${b['cards/s']}/s rectangles only`, ratio: `${(num(one['cards/s']) / num(b['cards/s'])).toFixed(2)}×`, aim: '≥ 0.95×', met: num(one['cards/s']) / num(b['cards/s']) >= 0.95 });
}

/**
 * A 120-card batch (480 pages of 300 ppi artwork) imposed 4-up on SRA3, against making the 120
 * single-job print files in the same run; a 20-card batch, to show the imposition's memory does not
 * grow with the batch (one sheet at a time); and batches of 20, 60, 120 and 480 jobs in one process, to
 * show a sheet costs the same in a big batch as in a small one. Each step is its own process.
 */
async function impose() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-bench-impose-'));
  try {
    const step = (name: 'single' | 'impose' | 'scale', cards: number | string): ImposeStepResult => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/impose.bench.ts'), name, dir, String(cards)], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
      const line = r.stdout.trim().split('\n').pop() ?? '';
      if (r.status !== 0 || !line.startsWith('{')) throw new Error(`impose ${name} ${cards} failed (${r.status})\n${r.stderr}`);
      return JSON.parse(line) as ImposeStepResult;
    };
    const single = step('single', 120);
    const batch = step('impose', 120);
    const small = step('impose', 20);
    const scale = step('scale', '20,60,120,480');
    console.table([single, batch, small].map((r) => ({ step: r.step === 'single' ? `${r.cards} single-job PDFs` : `impose ${r.cards} cards`, seconds: r.seconds, 'peak RSS MB': r.peakRssMb, 'output MB': (r.bytes / 2 ** 20).toFixed(0), sheets: r.sheets ?? '' })));
    const sizes = scale.sizes ?? [];
    // CPU time: what a sheet costs however busy the shared cores are (wall time is shown too).
    const perSheet = (s: (typeof sizes)[number]) => (s.cpuSeconds * 1000) / s.sheets;
    console.table(sizes.map((s) => ({ jobs: s.cards, sheets: s.sheets, 'wall s': s.seconds, 'CPU s': s.cpuSeconds, 'CPU ms per sheet': perSheet(s).toFixed(1) })));
    summary.push({
      figure: 'Impose a 120-card batch on SRA3 (time, peak RSS)',
      value: `${batch.seconds} s, ${batch.peakRssMb} MB`,
      baseline: `${single.seconds} s, ${single.peakRssMb} MB for the 120 single-job PDFs`,
      ratio: `${(batch.seconds / single.seconds).toFixed(2)}× time`,
      aim: '—',
      met: null,
    });
    // Bounded: 6 times the cards may not take much more memory (each sheet is written as it fills).
    summary.push({
      figure: 'Imposition peak RSS, 120 vs 20 cards',
      value: `${batch.peakRssMb} MB (output ${(batch.bytes / 2 ** 20).toFixed(0)} MB)`,
      baseline: `${small.peakRssMb} MB`,
      ratio: `${(batch.peakRssMb / small.peakRssMb).toFixed(2)}×`,
      aim: '< 1.5× (bounded)',
      met: batch.peakRssMb < 1.5 * small.peakRssMb,
    });
    // Linear in the sheets: a sheet of a 60-, 120- or 480-job batch costs what one of a 20-job batch
    // does. Shown too, without an aim (a difference of two measures is noisier): each sheet a bigger
    // batch adds, which the fixed start-up cost of a batch cannot hide.
    const base = sizes.find((s) => s.cards === 20);
    const ms = (x: number) => `${x.toFixed(1)} ms/sheet`;
    for (const s of sizes.filter((x) => x !== base)) {
      if (!base) break;
      const ratio = perSheet(s) / perSheet(base);
      summary.push({
        figure: `Batch sheets: CPU a sheet, ${s.cards} vs 20 jobs`,
        value: `${ms(perSheet(s))} (${s.sheets} sheets, ${s.cpuSeconds} s CPU, ${s.seconds} s)`,
        baseline: `${ms(perSheet(base))} (${base.sheets} sheets, ${base.cpuSeconds} s CPU, ${base.seconds} s)`,
        ratio: `${ratio.toFixed(2)}×`,
        aim: '≤ 1.3× (linear)',
        met: ratio <= 1.3,
      });
    }
    const added = (a: (typeof sizes)[number], b: (typeof sizes)[number]) => ((b.cpuSeconds - a.cpuSeconds) * 1000) / (b.sheets - a.sheets);
    if (sizes.length >= 3) {
      const first = added(sizes[0], sizes[1]);
      for (let i = 2; i < sizes.length; i++) {
        const later = added(sizes[i - 1], sizes[i]);
        summary.push({
          figure: `Batch sheets: CPU a sheet added, ${sizes[i - 1].cards}→${sizes[i].cards} vs ${sizes[0].cards}→${sizes[1].cards} jobs`,
          value: ms(later),
          baseline: ms(first),
          ratio: `${(later / first).toFixed(2)}×`,
          aim: '—',
          met: null,
        });
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const RUNNERS: Record<Scenario, () => Promise<unknown>> = {
  pdf,
  impose,
  webhooks,
  orders,
  render,
  bundle: () => runTs('bench/admin.bench.ts', ['bundle']),
  jobs: () => runTs('bench/admin.bench.ts', ['jobs', process.env.BENCH_JOBS_LOADS ?? '15']),
  startup: () => runTs('bench/startup.bench.ts', [process.env.BENCH_STARTS ?? '3']),
  backup: () => runTs('bench/backup.bench.ts'),
  storage: () => runTs('bench/storage.bench.ts'),
  routing: () => runTs('bench/routing.bench.ts'),
  tests: () => runTs('bench/tests.bench.ts'),
};

async function main() {
  const started = Date.now();
  const load0 = os.loadavg();
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
  console.log(`Machine: ${machine}; load average ${load0.map((l) => l.toFixed(2)).join(' ')}`);
  const failed: string[] = [];
  const timings: Record<string, number> = {};
  for (const s of chosen()) {
    console.log(`\n=== ${s} ===`);
    const t = Date.now();
    try {
      await RUNNERS[s]();
    } catch (e) {
      console.error(`${s}: ${(e as Error).message}`);
      failed.push(s);
    }
    timings[s] = (Date.now() - t) / 1000;
  }
  const load1 = os.loadavg();
  const seconds = (Date.now() - started) / 1000;
  console.log('\n=== Summary (each figure against a baseline measured in this run) ===');
  console.table(summary.map((r) => ({ figure: r.figure, value: r.value, baseline: r.baseline, ratio: r.ratio, aim: r.aim, 'met?': r.met === null ? '—' : r.met ? 'yes' : 'NO' })));
  console.log(`Machine: ${machine}`);
  console.log(`Load average: ${load0.map((l) => l.toFixed(2)).join(' ')} at the start, ${load1.map((l) => l.toFixed(2)).join(' ')} at the end`);
  console.log(`Took ${seconds.toFixed(0)} s (${Object.entries(timings).map(([k, v]) => `${k} ${v.toFixed(0)} s`).join(', ')})`);
  const out = path.join(root, 'bench/results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `summary-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ machine, loadAverage: { start: load0, end: load1 }, seconds, timings, summary, failed }, null, 2));
  if (failed.length) {
    console.error(`Failed: ${failed.join(', ')}`);
    process.exit(1);
  }
}

await main();
