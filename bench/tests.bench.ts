// npm test's own time: the README's test command, as a developer runs it, on this machine. The aim is
// absolute (≤ 4 minutes on 2 cores, every test kept), so the row compares the wall time to it; vitest's
// own split (import, tests, environment) says where the time goes. Not in the full run (it is
// minutes long and would measure the machine the other scenarios load): `npm run bench -- tests`.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { emitSummary, root } from './support';

const AIM_SECONDS = 240;

/** Runs `npx vitest run` (what `npm test` runs), its output shown; answers the wall time and vitest's closing lines. */
async function runSuite(): Promise<{ seconds: number; text: string; code: number | null }> {
  const t = Date.now();
  // npm test is the SQLite suite (CI runs it without a database URL too).
  const env = { ...process.env };
  delete env.TEST_DATABASE_URL;
  const child = spawn('npx', ['vitest', 'run', '--reporter=dot'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    text += d;
    process.stdout.write(d);
  });
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  return { seconds: (Date.now() - t) / 1000, text, code };
}

// eslint-disable-next-line no-control-regex
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const load0 = os.loadavg()[0];
const { seconds, text, code } = await runSuite();
const out = plain(text);
if (code !== 0) {
  console.error(`npm test failed (exit ${code}): its time is not a figure`);
  process.exit(1);
}
const files = /Test Files\s+(\d+) passed/.exec(out)?.[1] ?? '?';
const tests = /Tests\s+(\d+) passed/.exec(out)?.[1] ?? '?';
const split = /Duration\s+[\d.]+m?s\s+\(([^)]*)\)/.exec(out)?.[1] ?? '';
const load1 = os.loadavg()[0];
emitSummary({
  figure: `npm test, wall time (${files} files, ${tests} tests; load ${load0.toFixed(1)} → ${load1.toFixed(1)})`,
  value: `${seconds.toFixed(0)} s`,
  baseline: `${AIM_SECONDS} s (the aim)${split ? `; vitest: ${split}` : ''}`,
  ratio: `${(seconds / AIM_SECONDS).toFixed(2)}× the aim`,
  aim: `≤ ${AIM_SECONDS} s on ${os.cpus().length} cores`,
  met: seconds <= AIM_SECONDS,
});
