// The log destination never holds the process: a reader that is behind gets a bounded backlog, a
// reader that is gone stops logging (not the server), and the flush at exit is bounded — on a fake
// descriptor, and on a real pipe nobody reads.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogDestination } from '../src/lib/logDestination';

const errno = (code: string) => Object.assign(new Error(code), { code });

/** A descriptor that takes at most `room` bytes until `read()`; `fail` makes every write throw. */
function fakeFd() {
  const taken: string[] = [];
  let room = Infinity;
  let fail: string | null = null;
  let calls = 0;
  const writeSync = (_fd: number, data: string | Buffer) => {
    calls++;
    if (fail) throw errno(fail);
    const buf = Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (room <= 0) throw errno('EAGAIN');
    const n = Math.min(room, buf.length);
    room -= n;
    taken.push(buf.subarray(0, n).toString());
    return n;
  };
  return {
    writeSync,
    text: () => taken.join(''),
    set room(n: number) {
      room = n;
    },
    set fail(code: string | null) {
      fail = code;
    },
    get calls() {
      return calls;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const line = (i: number) => `${JSON.stringify({ level: 30, msg: `line ${i}` })}\n`;

describe('log destination', () => {
  it('writes each line at once while the descriptor takes it', () => {
    const fd = fakeFd();
    const dest = createLogDestination(1, { writeSync: fd.writeSync });
    for (let i = 0; i < 3; i++) dest.write(line(i));
    expect(fd.text()).toBe(line(0) + line(1) + line(2));
    expect(dest.stats()).toEqual({ dropped: 0, backlogBytes: 0, stoppedBy: null });
  });

  it('a reader that is behind: lines wait in order (a partly written one too) and go out when it reads again', async () => {
    const fd = fakeFd();
    const dest = createLogDestination(1, { writeSync: fd.writeSync, retryMs: 5 });
    fd.room = 10; // the pipe takes the first 10 bytes of line 0, then is full
    for (let i = 0; i < 4; i++) dest.write(line(i));
    expect(fd.text()).toBe(line(0).slice(0, 10));
    expect(dest.stats().backlogBytes).toBe(line(0).length - 10 + line(1).length + line(2).length + line(3).length);
    fd.room = Infinity;
    await sleep(50);
    expect(fd.text()).toBe(line(0) + line(1) + line(2) + line(3));
    expect(dest.stats().backlogBytes).toBe(0);
  });

  it('a backlog beyond its cap drops lines, and says how many once output flows again', async () => {
    const fd = fakeFd();
    const dest = createLogDestination(1, { writeSync: fd.writeSync, retryMs: 5, maxBacklogBytes: 3 * line(0).length });
    fd.room = 0;
    for (let i = 0; i < 10; i++) dest.write(line(i));
    expect(dest.stats().dropped).toBe(7);
    fd.room = Infinity;
    await sleep(50);
    const lines = fd.text().trim().split('\n');
    expect(lines.slice(0, 3)).toEqual([0, 1, 2].map((i) => line(i).trim()));
    expect(JSON.parse(lines[3])).toMatchObject({ level: 40, msg: '7 log lines were dropped: the log output was not read fast enough' });
  });

  it('a reader that went away (EPIPE): logging stops for good, nothing throws, nothing is retried', async () => {
    const fd = fakeFd();
    const dest = createLogDestination(1, { writeSync: fd.writeSync, retryMs: 5 });
    fd.room = 0;
    dest.write(line(0));
    fd.fail = 'EPIPE';
    await sleep(30);
    const calls = fd.calls;
    expect(() => dest.write(line(1))).not.toThrow();
    expect(() => dest.flushSync(1000)).not.toThrow();
    await sleep(30);
    expect(fd.calls).toBe(calls);
    expect(dest.stats()).toEqual({ dropped: 2, backlogBytes: 0, stoppedBy: 'EPIPE' });
  });

  it('the flush at exit waits at most its budget for a reader that never reads', () => {
    const fd = fakeFd();
    const dest = createLogDestination(1, { writeSync: fd.writeSync });
    fd.room = 0;
    for (let i = 0; i < 5; i++) dest.write(line(i));
    const started = Date.now();
    dest.flushSync(100);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(90);
    expect(took).toBeLessThan(2000);
    expect(dest.stats()).toMatchObject({ dropped: 5, backlogBytes: 0 });
  });

  it('the flush at exit writes the backlog of a reader that catches up', () => {
    const fd = fakeFd();
    const dest = createLogDestination(1, { writeSync: fd.writeSync });
    fd.room = 0;
    dest.write(line(0));
    fd.room = Infinity;
    dest.flushSync(100);
    expect(fd.text()).toBe(line(0));
  });

  it('a process logging 2 MB to a pipe nobody reads exits by itself, and its exit is not held', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const script = `
      import { createLogger } from './server/src/lib/logger.ts';
      const log = createLogger('info');
      for (let i = 0; i < 10000; i++) log.info({ i, pad: 'x'.repeat(200) }, 'filling the pipe');
      process.stderr.write('logged\\n');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    // Nobody reads stdout: the pipe (64 KiB) fills at once.
    child.stdout.pause();
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 30_000);
      child.on('exit', (code) => (clearTimeout(timer), resolve(code)));
    });
    if (exited === null) child.kill('SIGKILL');
    expect(err).toContain('logged');
    expect(exited, 'the process exited by itself').toBe(0);
  }, 60_000);
});
