// The PDF worker thread: runs one task at a time from pool.ts and answers with the result or the error.
import { parentPort } from 'node:worker_threads';
import { TaskError, runTask, type Task } from './tasks';

export interface TaskMessage {
  id: number;
  task: Task;
}

export type TaskReply =
  | { id: number; ok: true; result: Awaited<ReturnType<typeof runTask>> }
  | { id: number; ok: false; status: number; message: string };

const port = parentPort;
if (port) {
  port.on('message', async ({ id, task }: TaskMessage) => {
    try {
      const result = await runTask(task);
      // Copied, not transferred: a PNG from the canvas lives in native memory, which Node 22+
      // refuses to transfer (DataCloneError); a copy of a few MB is nothing next to the task.
      port.postMessage({ id, ok: true, result } satisfies TaskReply);
    } catch (err) {
      const status = err instanceof TaskError ? err.status : 500;
      const message = err instanceof TaskError ? err.message : `PDF worker failed: ${(err as Error)?.message ?? String(err)}`;
      port.postMessage({ id, ok: false, status, message } satisfies TaskReply);
    }
  });
  port.postMessage({ ready: true });
}
