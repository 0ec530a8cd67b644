import { describe, expect, it, vi } from 'vitest';
import { lazyPage, preloadPageFor } from './lazyPage';

const Page = () => null;

describe('lazyPage / preloadPageFor', () => {
  it('preloads the page of the current path once, and no other', async () => {
    const jobs = vi.fn(async () => ({ default: Page }));
    const design = vi.fn(async () => ({ default: Page }));
    const routes = [
      [/^\/print-jobs\/?$/, lazyPage(jobs)],
      [/^\/design\/[^/]+\/?$/, lazyPage(design)],
    ] as const;
    preloadPageFor('/print-jobs', routes);
    preloadPageFor('/print-jobs', routes);
    await routes[0][1].preload();
    expect(jobs).toHaveBeenCalledTimes(1);
    expect(design).not.toHaveBeenCalled();
    preloadPageFor('/design/12', routes);
    expect(design).toHaveBeenCalledTimes(1);
    preloadPageFor('/nowhere', routes);
    expect(jobs).toHaveBeenCalledTimes(1);
  });

  it('a failed load is retried on the next preload', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ default: Page });
    const page = lazyPage(load);
    await expect(page.preload()).rejects.toThrow('offline');
    await expect(page.preload()).resolves.toEqual({ default: Page });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
