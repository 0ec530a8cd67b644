// Shared pieces of the benchmarks that run real processes (admin, Jobs render, startup/memory):
// free ports, starting a process and timing it until it answers, RSS from /proc, percentiles, and
// the summary line run.ts collects.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt as ensureBuiltBy, type BuildName } from '../scripts/lib/builds.mjs';

export const root = path.resolve(import.meta.dirname, '..');

export { freePort } from '../server/test/infra';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const median = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 50);

/** One line of the summary table `npm run bench` prints at the end (see run.ts). */
export interface SummaryRow {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  aim: string;
  /** true / false against the aim; null when there is no aim (reported only). */
  met: boolean | null;
}

export const SUMMARY_PREFIX = 'BENCH_SUMMARY ';

export function emitSummary(row: SummaryRow): void {
  console.log(SUMMARY_PREFIX + JSON.stringify(row));
}

export interface Started {
  child: ChildProcess;
  /** ms from spawn to the first 200 from `readyUrl`. */
  readyMs: number;
  /** pid of the process that actually serves (the deepest descendant when started through npm). */
  serverPid: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** Children of a process (Linux /proc). */
function childPids(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** The deepest single-child descendant: `npm start` → node scripts/start.mjs → node server/src/main.ts. */
export function leafPid(pid: number): number {
  let p = pid;
  for (;;) {
    const kids = childPids(p);
    if (kids.length === 0) return p;
    p = kids[kids.length - 1];
  }
}

/** Resident set size of one process in bytes (VmRSS), or NaN if it is gone. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Whether a process is still running (a zombie waiting for its parent to collect it is not). */
function isRunning(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; comm may hold spaces or parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

const signalGroup = (leader: number, sig: NodeJS.Signals) => signal(-leader, sig);

/** Spawns `command args` and polls `readyUrl` every 20 ms until it answers 200 (or fails after `timeoutMs`). */
export async function startAndTime(command: string, args: string[], env: Record<string, string>, readyUrl: string, timeoutMs = 120_000): Promise<Started> {
  let out = '';
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout?.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr?.on('data', (d) => (out = (out + d).slice(-20_000)));
  // The process that serves, found once it answers: through npm it is a grandchild, and npm exits
  // on SIGTERM before the server under it has finished shutting down (and released its database).
  let serverPid: number | undefined;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const gone = async (ms: number) => {
    const until = Date.now() + ms;
    while (!exited() || isRunning(serverPid!)) {
      if (Date.now() > until) return false;
      await sleep(20);
    }
    return true;
  };
  const stop = async () => {
    serverPid ??= leafPid(child.pid!);
    // The whole process group: npm, scripts/start.mjs and the server all get SIGTERM; done when the
    // server itself has exited, not only the process spawned here.
    signalGroup(child.pid!, 'SIGTERM');
    if (await gone(10_000)) return;
    signalGroup(child.pid!, 'SIGKILL');
    signal(serverPid, 'SIGKILL');
    if (!(await gone(10_000))) throw new Error(`${command} ${args.join(' ')}: the server (pid ${serverPid}) did not exit after SIGKILL`);
  };
  for (;;) {
    try {
      const r = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) });
      await r.arrayBuffer();
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null || performance.now() - t0 > timeoutMs) {
      await stop();
      throw new Error(`${command} ${args.join(' ')} did not answer ${readyUrl}:\n${out.slice(-4000)}`);
    }
    await sleep(20);
  }
  const readyMs = performance.now() - t0;
  serverPid = leafPid(child.pid!);
  return { child, readyMs, serverPid, output: () => out, stop };
}

export function tmpDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Builds what is missing or older than its sources (scripts/lib/builds.mjs, as npm start would), so no timed start includes a build. */
export async function ensureBuilt(names: BuildName[]): Promise<void> {
  await ensureBuiltBy(names, { log: (line) => console.log(`  ${line}`) });
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
export const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
