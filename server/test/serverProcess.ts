// The real server (server/src/main.ts through tsx) as a child process on a free port, for the
// scenarios that test how it starts and refuses to: no demo, no simulators, no scheduler.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const projectRoot = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Resolves once it listens, or with how it exited. */
  outcome: Promise<{ running: true } | { running: false; code: number | null }>;
  exited: Promise<number | null>;
  output(): string;
  stderr(): string;
}

/** Starts it on `dataDir` with these settings added; `track` gets the child, to be killed after the file. */
export function startServerProcess(dataDir: string, env: Record<string, string>, track: (child: ChildProcessWithoutNullStreams) => void): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '0', SIMULATORS: '0', SYNC_SCHEDULER: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  track(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const outcome = new Promise<{ running: true } | { running: false; code: number | null }>((resolve) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('Presswork is running at')) resolve({ running: true });
    });
    void exited.then((code) => resolve({ running: false, code }));
  });
  return { child, outcome, exited, output: () => stdout + stderr, stderr: () => stderr };
}
