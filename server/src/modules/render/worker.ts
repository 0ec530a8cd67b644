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
      const transfer = [...result.pages, ...(result.preview ? [result.preview] : [])]
        .map((b) => b.buffer)
        .filter((b, i, all): b is ArrayBuffer => b instanceof ArrayBuffer && all.indexOf(b) === i);
      port.postMessage({ id, ok: true, result } satisfies RenderReply, transfer);
    } catch (err) {
      port.postMessage({ id, ok: false, message: (err as Error)?.message ?? String(err) } satisfies RenderReply);
    }
  });
  port.postMessage({ ready: true });
}
