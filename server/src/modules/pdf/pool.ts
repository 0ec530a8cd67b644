// The worker threads of PDF work (see lib/threadPool.ts for deadlines and recovery).
import { HttpError } from '../../http/errors';
import { createThreadPool, type ThreadPool } from '../../lib/threadPool';
import type { Task } from './tasks';
import type { TaskReply } from './worker';

export const TOO_LONG = 'PDF generation took too long';

type Result = Extract<TaskReply, { ok: true }>['result'];

export type WorkerPool = ThreadPool<Task, Result>;

export function createWorkerPool(size?: number): WorkerPool {
  return createThreadPool<Task, Result>({
    entry: 'modules/pdf/worker',
    size,
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
    text: { tooLong: TOO_LONG, outOfMemory: 'PDF generation ran out of memory', failed: 'PDF generation' },
    replyError: (reply) => new HttpError(reply.status ?? 500, reply.message),
  });
}
