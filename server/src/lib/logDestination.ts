// Where the logger writes: a file descriptor (stdout), in a way that can never keep the process
// alive. pino's own destination (sonic-boom) flushes synchronously at exit and retries a failed
// write for ever — EAGAIN while a pipe is full and nobody reads it, and EPIPE once the reader is
// gone — so a stopping server sat in that loop for good. Here a line is written at once if the
// descriptor takes it; a reader that is behind gets a bounded backlog, retried on an unref'd
// timer; lines beyond it are dropped and counted (a note says how many once output flows again);
// any other write error ends logging (not the process). At exit the backlog gets a bounded moment.
import fs from 'node:fs';
import os from 'node:os';

export interface LogDestinationOptions {
  /** Bytes held for a reader that is behind; further lines are dropped (and counted). */
  maxBacklogBytes?: number;
  /** How long the flush at exit may wait for a reader that is behind. */
  exitFlushMs?: number;
  /** How soon a backlog is tried again. */
  retryMs?: number;
  /** The write system call (tests pass a fake). */
  writeSync?: (fd: number, data: string | Buffer) => number;
}

export interface LogDestinationStats {
  /** Lines dropped: the backlog was full, or logging stopped after a write error. */
  dropped: number;
  backlogBytes: number;
  /** The error that stopped logging (EPIPE: the reader went away), if any. */
  stoppedBy: string | null;
}

export interface LogDestination {
  /** pino's stream interface: one serialized line. Never throws, never waits. */
  write(line: string): boolean;
  /** Writes the backlog for at most `budgetMs` (0: what goes without waiting); the rest is dropped. */
  flushSync(budgetMs?: number): void;
  stats(): LogDestinationStats;
}

const WOULD_BLOCK = new Set(['EAGAIN', 'EWOULDBLOCK', 'EBUSY', 'EINTR']);
const pause = new Int32Array(new SharedArrayBuffer(4));

export function createLogDestination(fd: number, options: LogDestinationOptions = {}): LogDestination {
  const maxBacklog = options.maxBacklogBytes ?? 4 * 1024 * 1024;
  const retryMs = options.retryMs ?? 50;
  const writeSync = options.writeSync ?? ((f: number, data: string | Buffer) => (typeof data === 'string' ? fs.writeSync(f, data) : fs.writeSync(f, data)));
  const backlog: Buffer[] = [];
  let backlogBytes = 0;
  let dropped = 0;
  let droppedUnreported = 0;
  let stoppedBy: string | null = null;
  let timer: NodeJS.Timeout | undefined;

  /** One write: bytes written, 0 when the descriptor would block, -1 when logging stopped. */
  function attempt(data: string | Buffer): number {
    try {
      return writeSync(fd, data);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      if (WOULD_BLOCK.has(code)) return 0;
      stop(code);
      return -1;
    }
  }

  function stop(code: string) {
    stoppedBy = code;
    dropped += backlog.length;
    backlog.length = 0;
    backlogBytes = 0;
    if (timer) clearTimeout(timer);
    timer = undefined;
  }

  function hold(buf: Buffer) {
    backlog.push(buf);
    backlogBytes += buf.length;
  }

  /** Writes from the backlog until the descriptor would block; answers whether it emptied. */
  function drain(): boolean {
    while (backlog.length) {
      const head = backlog[0];
      const n = attempt(head);
      if (n < 0) return true;
      if (n === 0) return false;
      backlogBytes -= n;
      if (n < head.length) backlog[0] = head.subarray(n);
      else backlog.shift();
    }
    if (droppedUnreported) {
      const note = `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, hostname: os.hostname(), msg: `${droppedUnreported} log lines were dropped: the log output was not read fast enough` })}\n`;
      droppedUnreported = 0;
      if (attempt(note) === 0) hold(Buffer.from(note));
      return backlog.length === 0;
    }
    return true;
  }

  function scheduleRetry() {
    if (timer || stoppedBy) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!drain()) scheduleRetry();
    }, retryMs);
    // A backlog never keeps the process alive.
    timer.unref();
  }

  function drop() {
    dropped++;
    droppedUnreported++;
  }

  return {
    write(line) {
      if (stoppedBy) {
        dropped++;
        return true;
      }
      if (backlog.length === 0) {
        const n = attempt(line);
        if (n < 0) {
          dropped++;
          return true;
        }
        if (n === Buffer.byteLength(line)) return true;
        hold(Buffer.from(line).subarray(n));
      } else if (backlogBytes + Buffer.byteLength(line) > maxBacklog) {
        drop();
        return true;
      } else hold(Buffer.from(line));
      scheduleRetry();
      return true;
    },
    flushSync(budgetMs = options.exitFlushMs ?? 0) {
      const deadline = Date.now() + budgetMs;
      while (!drain() && !stoppedBy) {
        if (Date.now() >= deadline) {
          dropped += backlog.length;
          backlog.length = 0;
          backlogBytes = 0;
          return;
        }
        Atomics.wait(pause, 0, 0, Math.min(10, Math.max(1, deadline - Date.now())));
      }
    },
    stats: () => ({ dropped, backlogBytes, stoppedBy }),
  };
}

/** The longest the exit flush of stdout waits for a reader that is behind. */
export const EXIT_FLUSH_MS = 200;

let stdout: LogDestination | undefined;

/** The process's one stdout destination, flushed (bounded) at exit. */
export function stdoutDestination(): LogDestination {
  if (stdout) return stdout;
  // Node puts a pipe or socket stdout in non-blocking mode when process.stdout is first touched:
  // a write to a full pipe then fails with EAGAIN instead of waiting in the kernel for a reader.
  // A stdout whose reader went away must not crash the server through console.log either.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  const dest = createLogDestination(1, { exitFlushMs: EXIT_FLUSH_MS });
  process.once('exit', () => dest.flushSync());
  stdout = dest;
  return dest;
}
