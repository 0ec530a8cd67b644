import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files share one server and its demo data, and some read what others change: Needs attention
 * lists the demo's held job of order #1000 that preflight approves, and All orders expects its own
 * oldest order last, before other files add older ones. So they run in this fixed order, the same
 * on every machine (vitest would order them by the last run's durations); a new file runs after
 * these, by name. Routing runs after everything: the rules it saves route the demo's later orders.
 */
const ORDER = [
  'print-production', 'orders', 'editor', 'sync', 'scan', 'batches', 'foundation', 'screens',
  'attention', 'mail', 'search', 'store-connect', 'preflight', 'print-queue-small',
  'check-order-small', 'session',
].map((name) => `${name}.e2e.ts`);
const LAST = 'routing.e2e.ts';
const rank = (file: string) => {
  if (file.endsWith(`/${LAST}`)) return ORDER.length + 1;
  const at = ORDER.findIndex((name) => file.endsWith(`/${name}`));
  return at === -1 ? ORDER.length : at;
};

class FixedOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a.moduleId) - rank(b.moduleId) || a.moduleId.localeCompare(b.moduleId));
  }
}

// Browser tests: one Presswork server on a fresh database for the run, Chromium driven by playwright-core.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['server/test/node20.mjs', 'e2e/globalSetup.ts'],
    setupFiles: ['e2e/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    sequence: { sequencer: FixedOrder },
  },
});
