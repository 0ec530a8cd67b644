// Render worker threads (see lib/threadPool.ts for deadlines and recovery). The V8 heap of a
// worker is capped (resourceLimits); canvas pixels live outside it and are bounded by the pixel
// limits of service.ts.
import { HttpError } from '../../http/errors';
import { createThreadPool, type ThreadPool } from '../../lib/threadPool';
import type { DrawResult, DrawTask } from './draw';

export const RENDER_TOO_LONG = 'Rendering took too long';
export const RENDER_OUT_OF_MEMORY = 'Rendering ran out of memory';

/** Heap cap of a render worker (MB): documents and PNG buffers, not canvas pixels. */
export const WORKER_HEAP_MB = 384;

export type RenderPool = ThreadPool<DrawTask, DrawResult>;

export function createRenderPool(size?: number): RenderPool {
  return createThreadPool<DrawTask, DrawResult>({
    entry: 'modules/render/worker',
    size,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 64 },
    text: { tooLong: RENDER_TOO_LONG, outOfMemory: RENDER_OUT_OF_MEMORY, failed: 'Rendering' },
    replyError: (reply) => new HttpError(500, `Rendering failed: ${reply.message}`),
  });
}
