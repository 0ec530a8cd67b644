// npm run bench: print-PDF throughput and memory, ours against bare pdf-lib, measured in the same run;
// then webhooks/s and server renders/s of a personalised card (each against its own baseline).
// Each scenario runs in its own process (so peak RSS is per scenario), one after the other.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artworkPages, PAGE } from './artwork';
import type { Engine, Format, ScenarioResult } from './pdf.bench';

const root = path.resolve(import.meta.dirname, '..');
const budgetMs = Number(process.argv[2] ?? 8000);

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-bench-'));
  console.log(`Generating 4 A5 pages of 300 dpi artwork (${PAGE.width} × ${PAGE.height} px)…`);
  const { png, jpeg } = await artworkPages(4);
  png.forEach((b, i) => fs.writeFileSync(path.join(dir, `page-${i + 1}.png`), b));
  jpeg.forEach((b, i) => fs.writeFileSync(path.join(dir, `page-${i + 1}.jpg`), b));
  const sum = (bs: Buffer[]) => bs.reduce((n, b) => n + b.length, 0);
  console.log(`  PNG (opaque RGB, 8-bit): 4 pages, ${mb(sum(png))}; JPEG (q90): 4 pages, ${mb(sum(jpeg))}`);
  console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${os.platform()} ${os.arch()}`);

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
    if (r.status !== 0 || !line.startsWith('{')) {
      console.error(`failed (${r.status})\n${r.stderr}`);
      process.exit(1);
    }
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
  console.log('\nPrint PDF: 4 A5 pages of 300 dpi artwork');
  console.table(rows);
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s in all; "max loop stall" = longest event-loop block while building)`);

  const out = path.join(root, 'bench/results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(
    path.join(out, `pdf-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, results }, null, 2),
  );

  // Shopify order webhooks/s and p50/p99 at concurrency 32: ours against a bare Express JSON insert (bench/webhooks.bench.ts).
  const hooks = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/webhooks.bench.ts')], { cwd: root, stdio: 'inherit' });
  if (hooks.status !== 0) process.exit(1);

  // Server renders/s of a 4-page personalised card at 300 dpi and peak memory, against rectangles only (bench/render.bench.ts).
  const renders = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/render.bench.ts'), String(budgetMs)], { cwd: root, stdio: 'inherit' });
  if (renders.status !== 0) process.exit(1);

  // The order-list call at N stored orders (BENCH_ORDERS, default 100,000; comma-separated for several sizes).
  for (const n of (process.env.BENCH_ORDERS ?? '100000').split(',')) {
    const list = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/orderList.bench.ts'), n.trim(), '200'], { cwd: root, stdio: 'inherit' });
    if (list.status !== 0) process.exit(1);
  }
}

await main();
