import '@testing-library/jest-dom/vitest';
import { format } from 'node:util';
import { afterEach, vi } from 'vitest';

// A prop React does not know ends up as a junk attribute on the page: fail the test that rendered it.
const unknownProps: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (/does not recognize the .* prop on a DOM element/.test(String(args[0]))) unknownProps.push(format(...args));
  consoleError(...args);
};

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  const found = unknownProps.splice(0);
  if (found.length) throw new Error(`React warned of unknown DOM props:\n${found.join('\n')}`);
});
