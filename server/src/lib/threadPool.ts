// A small pool of worker threads for CPU-heavy work (print PDFs, page renders). Every task has a
// deadline: a task still queued at its deadline is dropped, a running one has its worker
// terminated (a fresh one starts for the next task). Either way the caller gets a 503 and the
// event loop never blocks. runtime.ts says how a worker starts (the built .js, or the .ts via tsx).
import os from 'node:os';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { HttpError } from '../http/errors';
import { workerStart } from './runtime';

/** What a worker posts back for task `id`. */
export type ThreadReply<R> = { id: number; ok: true; result: R } | { id: number; ok: false; status?: number; message: string };

/** Told how a task ended and how long it took from `run` (queue wait included): the metrics' hook. */
export type TaskObserver = (outcome: 'ok' | 'failed' | 'timeout', seconds: number) => void;

export interface ThreadPool<T, R> {
  run(task: T, timeoutMs: number, observe?: TaskObserver): Promise<R>;
  /** Starts the workers now rather than on the first task. */
  warm(): void;
  /** Answers every queued and running task with a 503 and terminates the workers. */
  close(): Promise<void>;
  readonly size: number;
}

export interface ThreadPoolOptions {
  /**
   * The worker's module under server/src without extension, e.g. "modules/pdf/worker" (it answers
   * `{id, task}` messages with a ThreadReply); the server build lists it in scripts/build-server.mjs.
   */
  entry: string;
  size?: number;
  resourceLimits: ResourceLimits;
  /** The 503 texts and the prefix of other failures, e.g. "PDF generation". */
  text: { tooLong: string; outOfMemory: string; failed: string };
  /** The error for a reply that says the task failed. */
  replyError: (reply: { status?: number; message: string }) => HttpError;
}

export const defaultPoolSize = () => Math.max(1, Math.min(2, os.availableParallelism()));

export function createThreadPool<T, R>(options: ThreadPoolOptions): ThreadPool<T, R> {
  const size = options.size ?? defaultPoolSize();
  const start = workerStart(options.entry);
  interface Job {
    id: number;
    task: T;
    resolve: (r: R) => void;
    reject: (e: unknown) => void;
    timer: NodeJS.Timeout;
    slot?: Slot;
  }
  interface Slot {
    worker: Worker;
    job: Job | null;
  }
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;

  function spawn(): Slot {
    const worker = new Worker(start.file, { workerData: start.workerData, execArgv: [], resourceLimits: options.resourceLimits });
    worker.unref();
    const slot: Slot = { worker, job: null };
    worker.on('message', (msg: ThreadReply<R> | { ready: true }) => {
      if (!('id' in msg)) return;
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      finish(slot);
      if (msg.ok) job.resolve(msg.result);
      else job.reject(options.replyError(msg));
    });
    const lost = (err: unknown) => {
      const job = slot.job;
      remove(slot);
      if (job) {
        clearTimeout(job.timer);
        const oom = (err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(new HttpError(oom ? 503 : 500, oom ? options.text.outOfMemory : `${options.text.failed} failed: ${(err as Error)?.message ?? 'the worker stopped'}`));
      }
      pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      if (slots.includes(slot)) lost(new Error(`the worker exited (${code})`));
    });
    slots.push(slot);
    return slot;
  }

  function remove(slot: Slot) {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
  }

  function finish(slot: Slot) {
    if (slot.job) clearTimeout(slot.job.timer);
    slot.job = null;
    pump();
  }

  function pump() {
    while (queue.length) {
      const slot = slots.find((s) => !s.job) ?? (slots.length < size ? spawn() : undefined);
      if (!slot) return;
      const job = queue.shift()!;
      slot.job = job;
      job.slot = slot;
      slot.worker.postMessage({ id: job.id, task: job.task });
    }
  }

  return {
    size,
    run(task, timeoutMs, observe) {
      const started = process.hrtime.bigint();
      const seen = (outcome: 'ok' | 'failed' | 'timeout') => observe?.(outcome, Number(process.hrtime.bigint() - started) / 1e9);
      return new Promise<R>((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          task,
          resolve: (r) => {
            seen('ok');
            resolve(r);
          },
          reject: (e) => {
            seen('failed');
            reject(e);
          },
          timer: setTimeout(() => {
            const qi = queue.indexOf(job);
            if (qi >= 0) queue.splice(qi, 1);
            const slot = job.slot;
            if (slot && slot.job === job) {
              slot.job = null;
              remove(slot);
              void slot.worker.terminate();
            }
            seen('timeout');
            reject(new HttpError(503, options.text.tooLong));
            pump();
          }, Math.max(1, timeoutMs)),
        };
        queue.push(job);
        pump();
      });
    },
    warm() {
      while (slots.length < size) spawn();
    },
    async close() {
      // Tasks queued or running get their answer now (a 503), so no caller waits on a stopped pool.
      const stopping = new HttpError(503, `${options.text.failed} stopped: the server is shutting down`);
      for (const job of [...queue.splice(0), ...slots.map((s) => s.job).filter((j): j is Job => j !== null)]) {
        clearTimeout(job.timer);
        job.reject(stopping);
      }
      const all = slots.splice(0);
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}

export interface LazyPool<P> {
  /** The pool, started now if it is not running; a 503 once stopped. */
  get(): P;
  /** Starts the workers ahead of the first task. */
  warm(): void;
  /** Throws the 503 once stopped (work before the pool's may be refused early, too). */
  refuseIfStopped(): void;
  /** Closes the pool; the next `get` starts a fresh one (tests, the benchmark). */
  close(): Promise<void>;
  /** Shutdown: closes the pool for good; every `get` from now on answers 503 `stoppedText`. */
  stop(): Promise<void>;
}

/**
 * A module's pool, started on first use and stopped for good at shutdown: once the server stops,
 * no new worker starts (a request still under way would otherwise start a fresh pool).
 */
export function lazyPool<P extends { warm(): void; close(): Promise<void> }>(create: () => P, stoppedText: string): LazyPool<P> {
  let pool: P | null = null;
  let stopped = false;
  const self: LazyPool<P> = {
    get() {
      self.refuseIfStopped();
      pool ??= create();
      return pool;
    },
    warm() {
      self.get().warm();
    },
    refuseIfStopped() {
      if (stopped) throw new HttpError(503, stoppedText);
    },
    async close() {
      const p = pool;
      pool = null;
      await p?.close();
    },
    async stop() {
      stopped = true;
      await self.close();
    },
  };
  return self;
}
