// Test-only, for the Node 20 the suites still run on where the machine has it: pdfjs-dist 6 calls
// Promise.withResolvers, which Node 22 has and Node 20 lacks. Production requires Node 22.13+
// (package.json engines) and carries no shim. Each vitest config names this file as a globalSetup:
// on Node 20 it puts itself in NODE_OPTIONS, so the test processes, the worker threads the app
// renders PDFs in and the app processes the suites start all load it first.
const native = typeof Promise.withResolvers === 'function';

if (!native) {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

export function setup() {
  if (native) return;
  const preload = `--import=${import.meta.url}`;
  const options = process.env.NODE_OPTIONS ?? '';
  if (!options.includes(preload)) process.env.NODE_OPTIONS = `${options} ${preload}`.trim();
}
