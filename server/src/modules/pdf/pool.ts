// A small pool of worker threads for PDF work. Every task has a deadline: a task still queued at
// its deadline is dropped, a running one has its worker terminated (and replaced on the next task).
// Either way the caller gets 503 "PDF generation took too long" and the event loop never blocks.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../../http/errors';
import type { Task } from './tasks';
import type { TaskMessage, TaskReply } from './worker';

export const TOO_LONG = 'PDF generation took too long';

type Result = Extract<TaskReply, { ok: true }>['result'];

interface Job {
  id: number;
  task: Task;
  resolve: (r: Result) => void;
  reject: (e: unknown) => void;
  timer: NodeJS.Timeout;
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export interface WorkerPool {
  run(task: Task, timeoutMs: number): Promise<Result>;
  /** Starts the workers now rather than on the first task. */
  warm(): void;
  close(): Promise<void>;
  readonly size: number;
}

export function createWorkerPool(size = Math.max(1, Math.min(2, os.availableParallelism?.() ?? os.cpus().length))): WorkerPool {
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;

  function spawn(): Slot {
    const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./worker.ts', import.meta.url).href },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
    worker.unref();
    const slot: Slot = { worker, job: null };
    worker.on('message', (msg: TaskReply | { ready: true }) => {
      if (!('id' in msg)) return;
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      finish(slot);
      if (msg.ok) job.resolve(msg.result);
      else job.reject(new HttpError(msg.status, msg.message));
    });
    const lost = (err: unknown) => {
      const job = slot.job;
      remove(slot);
      if (job) {
        clearTimeout(job.timer);
        const oom = (err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(new HttpError(oom ? 503 : 500, oom ? 'PDF generation ran out of memory' : `PDF generation failed: ${(err as Error)?.message ?? 'the worker stopped'}`));
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
      slot.worker.postMessage({ id: job.id, task: job.task } satisfies TaskMessage);
    }
  }

  return {
    size,
    run(task, timeoutMs) {
      return new Promise<Result>((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          task,
          resolve,
          reject,
          timer: setTimeout(() => {
            const qi = queue.indexOf(job);
            if (qi >= 0) queue.splice(qi, 1);
            const slot = job.slot;
            if (slot && slot.job === job) {
              slot.job = null;
              remove(slot);
              void slot.worker.terminate();
            }
            reject(new HttpError(503, TOO_LONG));
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
      const all = slots.splice(0);
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}
