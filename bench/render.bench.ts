// Server renders per second of a 4-page personalised card at 300 dpi (1819 × 2551 px a page, with
// bleed), and peak memory, against a baseline measured in the same run: the same canvas pipeline
// (renderService: validation, worker thread, fill, draw, PNG encode) drawing only the card's plain
// rectangles and backgrounds — no text, no images, no personalisation.
//   tsx bench/render.bench.ts [budgetMs=8000]            → runs every scenario, prints the table
//   tsx bench/render.bench.ts <scenario> <budgetMs>      → one scenario (own process: own peak RSS), one JSON line
// Scenarios: rects (baseline, one at a time), server-1 (renderService: validate, images, worker; one at
// a time), server-N (as many at once as the render pool has workers).
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { DesignDocument } from '../common/design-doc/types';
import { loadConfig } from '../server/src/config';
import type { Deps } from '../server/src/deps';
import { systemClock } from '../server/src/lib/clock';
import { createLogger } from '../server/src/lib/logger';
import { closeRenderWorkers, configureRender, renderService } from '../server/src/modules/render/service';
import { diskStore } from '../server/src/modules/uploads/storage';
import { cardDoc } from '../server/test/renderKit';

type Scenario = 'rects' | 'server-1' | 'server-n';

interface Result {
  scenario: Scenario;
  concurrency: number;
  iterations: number;
  rendersPerSecond: number;
  msPerRender: number;
  peakRssMb: number;
  pngBytes: number;
  /** CPU of the whole process (every thread, the zlib pool too) a render: steadier than wall time on a loaded machine. */
  cpuMsPerRender: number;
}

const NAMES = ['Amelia', 'Oliver Wendell-Hargreaves', 'Isla', 'George', 'Zainab', 'Siobhán', 'Tomasz', 'Freya May'];

/** The card of the render tests, with a customer photo (a 1200 × 900 JPEG) on the front. */
async function personalisedCard(): Promise<{ doc: DesignDocument; photo: string }> {
  const w = 1200;
  const h = 900;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      raw[i] = (x * 255) / w;
      raw[i + 1] = (y * 255) / h;
      raw[i + 2] = ((x ^ y) * 7) & 255;
    }
  const jpeg = await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
  const photo = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  const doc = cardDoc({
    frontExtra: [{ id: 'photo', name: 'Photo', type: 'image', x: 24, y: 95, width: 100, height: 52, rotation: 0, opacity: 1, src: photo, fit: 'cover', field: { property: 'Photo', sample: photo, fit: 'clip' } }],
  });
  return { doc, photo };
}

/** The same card with only its rectangles (and page backgrounds). */
function rectsOnly(doc: DesignDocument): DesignDocument {
  return { ...doc, pages: doc.pages.map((p) => ({ ...p, layers: p.layers.filter((l) => l.type === 'rect') })) };
}

async function runScenario(scenario: Scenario, budgetMs: number): Promise<Result> {
  const { doc, photo } = await personalisedCard();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  let pngBytes = 0;
  let render: (i: number) => Promise<void>;
  let concurrency = 1;
  {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir(), JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', SEED_DEMO: '0' });
    const deps = { db: undefined as never, clock: systemClock, config, log: createLogger('silent') } satisfies Deps;
    const service = renderService(deps, diskStore(path.join(os.tmpdir(), 'presswork-bench-files')), async () => {
      throw new Error('no fetching in the benchmark');
    });
    configureRender({ timeoutMs: 10 * 60_000 });
    concurrency = scenario === 'server-n' ? Math.max(1, Math.min(2, os.availableParallelism())) : 1;
    const plain = rectsOnly(doc);
    render = async (i) => {
      const out =
        scenario === 'rects'
          ? await service.renderDocument(plain, { dpi: 300 })
          : await service.renderDocument(doc, { dpi: 300, values: { 'Recipient name': NAMES[i % NAMES.length], Photo: photo } });
      if (out.missing.length) throw new Error(`missing ${out.missing.join(', ')}`);
      pngBytes = out.pages.reduce((n, p) => n + p.length, 0);
    };
  }
  // Warm-up: fonts, JIT, worker start.
  await Promise.all(Array.from({ length: concurrency }, (_, i) => render(i)));
  let iterations = 0;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const lane = async () => {
    while (performance.now() - started < budgetMs || iterations < 3) await render(iterations++);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  await closeRenderWorkers();
  return {
    scenario,
    concurrency,
    iterations,
    rendersPerSecond: (iterations * 1000) / elapsed,
    msPerRender: (elapsed * concurrency) / iterations,
    peakRssMb: peak / 1024 / 1024,
    pngBytes,
    cpuMsPerRender: (cpu.user + cpu.system) / 1000 / iterations,
  };
}

async function main(budgetMs: number) {
  console.log('\nServer render: a 4-page personalised card (text field + customer photo) at 300 dpi, 1819 × 2551 px a page, PNG pages + preview');
  const results: Result[] = [];
  for (const scenario of ['rects', 'server-1', 'server-n'] as Scenario[]) {
    process.stdout.write(`  running ${scenario}… `);
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'render.bench.ts'), scenario, String(budgetMs)], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0 || !line.startsWith('{')) {
      console.error(`failed (${r.status})\n${r.stderr}`);
      process.exit(1);
    }
    const result = JSON.parse(line) as Result;
    results.push(result);
    console.log(`${result.iterations} renders`);
  }
  const base = results[0];
  console.table(
    results.map((r) => ({
      scenario: r.scenario === 'rects' ? 'rectangles only, same pipeline (baseline)' : `personalised card, ${r.concurrency} at once`,
      'cards/s': r.rendersPerSecond.toFixed(2),
      'ms/card': r.msPerRender.toFixed(0),
      'vs baseline': `${(r.rendersPerSecond / base.rendersPerSecond).toFixed(2)}×`,
      'CPU ms/card': `${r.cpuMsPerRender.toFixed(0)} (${(base.cpuMsPerRender / r.cpuMsPerRender).toFixed(2)}×)`,
      'peak RSS': `${r.peakRssMb.toFixed(0)} MB`,
      'PNG bytes (4 pages)': `${(r.pngBytes / 1024).toFixed(0)} KB`,
    })),
  );
}

const [scenario, budget] = process.argv.slice(2);
if (scenario === 'rects' || scenario === 'server-1' || scenario === 'server-n') {
  const result = await runScenario(scenario, Number(budget ?? 8000));
  console.log(JSON.stringify(result));
  process.exit(0);
} else {
  await main(Number(scenario ?? 8000));
}
