// The render worker thread: draws one task at a time (draw.ts) and answers with PNGs or the error.
import { parentPort } from 'node:worker_threads';
import { drawPages, type DrawResult, type DrawTask } from './draw';

export interface RenderMessage {
  id: number;
  task: DrawTask;
}

export type RenderReply = { id: number; ok: true; result: DrawResult } | { id: number; ok: false; message: string };

const port = parentPort;
if (port) {
  port.on('message', async ({ id, task }: RenderMessage) => {
    try {
      const result = await drawPages(task);
      // Copied, not transferred: the PNGs live in Buffer memory Node 22+ refuses to transfer
      // (DataCloneError); a copy of a few MB is nothing next to the render.
      port.postMessage({ id, ok: true, result } satisfies RenderReply);
    } catch (err) {
      port.postMessage({ id, ok: false, message: (err as Error)?.message ?? String(err) } satisfies RenderReply);
    }
  });
  port.postMessage({ ready: true });
}
