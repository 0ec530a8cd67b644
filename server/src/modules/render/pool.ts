// Render worker threads. Every render has a deadline: still queued at its deadline it is dropped,
// running it has its worker terminated (a fresh one starts for the next render); either way the
// caller gets 503 "Rendering took too long". The V8 heap of a worker is capped (resourceLimits);
// canvas pixels live outside it and are bounded by the pixel limits of service.ts.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../../http/errors';
import type { DrawResult, DrawTask } from './draw';
import type { RenderMessage, RenderReply } from './worker';

export const RENDER_TOO_LONG = 'Rendering took too long';
export const RENDER_OUT_OF_MEMORY = 'Rendering ran out of memory';

/** Heap cap of a render worker (MB): documents and PNG buffers, not canvas pixels. */
export const WORKER_HEAP_MB = 384;

interface Job {
  id: number;
  task: DrawTask;
  resolve: (r: DrawResult) => void;
  reject: (e: unknown) => void;
  timer: NodeJS.Timeout;
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export interface RenderPool {
  run(task: DrawTask, timeoutMs: number): Promise<DrawResult>;
  warm(): void;
  close(): Promise<void>;
  readonly size: number;
}

export function createRenderPool(size = Math.max(1, Math.min(2, os.availableParallelism?.() ?? os.cpus().length))): RenderPool {
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;

  function spawn(): Slot {
    const worker = new Worker(new URL('../pdf/worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./worker.ts', import.meta.url).href },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 64 },
    });
    worker.unref();
    const slot: Slot = { worker, job: null };
    worker.on('message', (msg: RenderReply | { ready: true }) => {
      if (!('id' in msg)) return;
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      finish(slot);
      if (msg.ok) job.resolve(msg.result);
      else job.reject(new HttpError(500, `Rendering failed: ${msg.message}`));
    });
    const lost = (err: unknown) => {
      const job = slot.job;
      remove(slot);
      if (job) {
        clearTimeout(job.timer);
        const oom = (err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(new HttpError(oom ? 503 : 500, oom ? RENDER_OUT_OF_MEMORY : `Rendering failed: ${(err as Error)?.message ?? 'the worker stopped'}`));
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
      slot.worker.postMessage({ id: job.id, task: job.task } satisfies RenderMessage);
    }
  }

  return {
    size,
    run(task, timeoutMs) {
      return new Promise<DrawResult>((resolve, reject) => {
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
            reject(new HttpError(503, RENDER_TOO_LONG));
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
