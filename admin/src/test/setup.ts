import '@testing-library/jest-dom/vitest';
import { format } from 'node:util';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy… and waitFor give up after 1 s by default; a whole screen rendered in jsdom takes longer
// than that when the server suite shares the two cores, so a test could fail on a slow machine
// with nothing wrong. A missing element still fails the test, only later.
configure({ asyncUtilTimeout: 10_000 });

// A prop React does not know ends up as a junk attribute on the page: fail the test that rendered it.
const unknownProps: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (/does not recognize the .* prop on a DOM element/.test(String(args[0]))) unknownProps.push(format(...args));
  consoleError(...args);
};

afterEach(() => {
  // Testing Library unmounts after each test by itself only in the first file a test worker runs
  // (its module, and the afterEach it registers, load once a worker): unmount here for every file.
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  const found = unknownProps.splice(0);
  if (found.length) throw new Error(`React warned of unknown DOM props:\n${found.join('\n')}`);
});
