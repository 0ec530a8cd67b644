// Graceful shutdown on SIGTERM/SIGINT — and on a crash, with exit code 1 — in one place, within SHUTDOWN_TIMEOUT_MS whatever is under way:
//  1. stop accepting: the instance turns not ready (ShutdownState, read by readiness), the listener
//     closes, idle keep-alive connections close now, and every answer from here on — those under way
//     included — closes its connection;
//  2. `stop`: background work stops (a stop may answer a promise: its pass under way has finished)
//     while requests under way finish — both until they are done or the drain time is up;
//  3. connections still open are closed, and `interrupt` stops work that cannot finish now (thread
//     pools: their tasks answered 503, their CPU freed for what follows);
//  4. `handBack`: what this instance still holds (leases, claims) goes back to claimable now;
//  5. `close`: the database; exit 0 (1 if a step of 3–5 did not finish in time).
// A hard timer (not unref'd) exits with 1 whatever is still running, early enough that the logger's
// exit flush and the process's teardown still fit in the bound (shutdownTimes). The logger cannot
// hold the exit (logDestination.ts), but native work can: exiting waits for every job queued on
// libuv's thread pool (the image decodes of print PDFs under way: 0.7–2.2 s measured mid-render)
// and for worker threads to stop.
// So a watchdog process SIGKILLs this one at the bound if it is still there. A second signal (after
// the first second: see shutdownOnSignals) ends the process at once.
import type { Server, ServerResponse } from 'node:http';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { EXIT_FLUSH_MS } from './logDestination';

/** Named steps, run in the order written; a step may answer a promise (awaited within its phase's time). */
export type ShutdownSteps = Record<string, () => unknown>;

export interface ShutdownPlan {
  /** Background work (workers, timers, schedulers, simulators): stopped first, all at once. */
  stop: ShutdownSteps;
  /** Work under way that cannot finish now (thread pools): stopped once the drain is over. */
  interrupt: ShutdownSteps;
  /** Held work given back once requests and background work are done (the database is still open). */
  handBack: ShutdownSteps;
  /** Closed last, one after the other: the database. */
  close: ShutdownSteps;
}

/**
 * Whether this process has begun to shut down: the one place that says so. createShutdown sets it
 * when the shutdown begins; readiness reads it (Deps.shuttingDown), and answers 503 from then on.
 */
export interface ShutdownState {
  begun: boolean;
}

export interface ShutdownOptions {
  server: Server;
  /** Set when the shutdown begins (main.ts shares it with readiness); one of its own when not given. */
  state?: ShutdownState;
  log: Logger;
  timeoutMs: number;
  plan: ShutdownPlan;
  /** How the process ends (tests pass a fake). */
  exit?: (code: number) => void;
  /** SIGKILL this process at the bound if it is still there (see startExitWatchdog). */
  watchdog?: boolean;
}

/**
 * When each phase must be over, in ms after the signal was handled: the drain (steps 1–2), the hand
 * back (3–4) and the exit (5, and the hard timer). The end of the bound (a fifth, 0.2 s to 1 s) is
 * kept for what follows the exit: the logger's flush and the process's own teardown (0.5 s and more
 * measured with a large heap on a busy machine; the watchdog covers a longer one). Steps 3–5 get a
 * quarter of the bound (0.5 s to 3 s) before that.
 */
export function shutdownTimes(timeoutMs: number): { drainMs: number; handBackMs: number; exitMs: number } {
  const exitMs = timeoutMs - Math.max(EXIT_FLUSH_MS, Math.min(1000, Math.floor(timeoutMs / 5)));
  const afterDrain = Math.min(3000, Math.max(500, Math.floor(timeoutMs / 4)));
  return { drainMs: exitMs - afterDrain, handBackMs: exitMs - Math.floor(afterDrain / 2), exitMs };
}

/**
 * The last resort: a small separate process that SIGKILLs this one at `deadline` (epoch ms) if it is
 * still there. It ends as soon as this process is gone: it is then no longer our child (its parent
 * process id changes the moment we exit), so it never meets a reused process id. Spawning forks this
 * process, which takes the forking thread 0.1–0.3 s with a large heap: a short-lived worker thread
 * does it, not the main thread.
 */
export function startExitWatchdog(deadline: number, log: Logger): void {
  const watchdog = `const parent = ${process.pid};
setInterval(() => { if (process.ppid !== parent) process.exit(); }, 25);
setTimeout(() => { if (process.ppid === parent) try { process.kill(parent, 'SIGKILL'); } catch {} process.exit(); }, ${deadline} - Date.now());`;
  try {
    const spawner = new Worker(`require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(watchdog)}], { stdio: 'ignore', env: {} }).unref();`, { eval: true, execArgv: [] });
    spawner.on('error', (err) => log.warn({ err }, 'the shutdown watchdog could not start'));
    spawner.unref();
  } catch (err) {
    log.warn({ err }, 'the shutdown watchdog could not start');
  }
}

const sleepUntil = (at: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())).unref());

/** Shuts down once; `failed` (a crash) makes the exit code 1 whenever it comes. */
export type Shutdown = (reason: string, opts?: { failed?: boolean }) => Promise<void>;

/** Answers a function that shuts down once (a second call answers the first one's promise). */
export function createShutdown({ server, log, timeoutMs, plan, state = { begun: false }, exit = (code) => process.exit(code), watchdog = false }: ShutdownOptions): Shutdown {
  let started: Promise<void> | undefined;
  // A crash during a shutdown begun by a signal still ends with 1.
  let failed = false;
  // Node keeps a connection alive after an answer even once the server is closing: answers still to
  // be written when the shutdown begins are kept track of, so they too tell their client to go elsewhere.
  const unanswered = new Set<ServerResponse>();
  server.prependListener('request', (_req, res) => {
    if (state.begun) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
      return;
    }
    unanswered.add(res);
    res.once('close', () => unanswered.delete(res));
  });

  /** Runs steps (all at once, or one after the other) until `until`; answers the names of those not finished. */
  async function phase(name: string, steps: ShutdownSteps, until: number, sequential: boolean): Promise<string[]> {
    const pending = new Set(Object.keys(steps));
    const runStep = async (step: string) => {
      try {
        await steps[step]();
      } catch (err) {
        log.warn({ err, step }, `shutdown: ${step} failed`);
      } finally {
        pending.delete(step);
      }
    };
    const all = sequential
      ? (async () => {
          for (const step of Object.keys(steps)) if (Date.now() < until) await runStep(step);
        })()
      : Promise.all(Object.keys(steps).map(runStep));
    await Promise.race([all, sleepUntil(until)]);
    if (pending.size) log.warn({ phase: name, unfinished: [...pending] }, 'shutdown: moving on without waiting longer');
    return [...pending];
  }

  async function shutdown(reason: string): Promise<void> {
    const began = Date.now();
    const times = shutdownTimes(timeoutMs);
    // A quarter of the time kept for the teardown is left for the kernel to end a killed process.
    if (watchdog) startExitWatchdog(began + timeoutMs - Math.floor((timeoutMs - times.exitMs) / 4), log);
    const hardAt = began + times.exitMs;
    const hard = setTimeout(() => {
      log.error({ reason, timeoutMs }, 'shutdown did not finish in time: exiting now');
      exit(1);
    }, times.exitMs);
    const drainUntil = began + times.drainMs;
    log.info({ reason, timeoutMs }, 'shutting down');

    // 1. Not ready; no new connections; idle ones closed now (and again while the drain lasts: a
    //    connection whose answer was already on its way when we began goes idle later); every answer
    //    closes its connection.
    state.begun = true;
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
    unanswered.clear();
    const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();

    // 2. Background work stops while requests under way finish.
    await Promise.all([phase('stop', plan.stop, drainUntil, false), Promise.race([httpClosed, sleepUntil(drainUntil)])]);
    clearInterval(sweep);

    // 3. Whatever is still open is cut.
    server.closeAllConnections();
    const unfinished = await phase('interrupt', plan.interrupt, began + times.handBackMs, false);

    // 4–5. Held work back, then the database, within what is left of the bound.
    unfinished.push(...(await phase('handBack', plan.handBack, began + times.handBackMs, true)), ...(await phase('close', plan.close, hardAt, true)));
    clearTimeout(hard);
    log.info({ reason, ms: Date.now() - began, unfinished }, 'shut down');
    // 1: the process crashed, or something may still be held (until its lease runs out) or was not closed cleanly.
    exit(failed || unfinished.length ? 1 : 0);
  }

  return (reason, opts) => {
    if (opts?.failed) failed = true;
    return (started ??= shutdown(reason));
  };
}

/**
 * A crash — a promise rejected with no one to catch it, an exception thrown with no one to catch it —
 * is logged and ends the process through the same plan as a signal (leases and the database claim
 * handed back, the database closed), with exit code 1. Left to Node, the process would die at once
 * and its leases would hold their work until they ran out.
 */
export function shutdownOnCrash(shutdown: Shutdown, log: Logger): void {
  const onCrash = (what: string) => (err: unknown) => {
    log.fatal({ err }, `${what}: shutting down`);
    void shutdown(what, { failed: true });
  };
  process.on('unhandledRejection', onCrash('unhandled rejection'));
  process.on('uncaughtException', onCrash('uncaught exception'));
}

/** How long after the first signal a repeat is taken for the same stop request. */
export const REPEAT_SIGNAL_MS = 1000;

/**
 * Shuts down on the first of these signals; a later one ends the process at once. One stop request
 * often arrives twice at once (a terminal's Ctrl-C, or systemd, signals every process of the group,
 * and a wrapper such as npm start forwards it too): a repeat within REPEAT_SIGNAL_MS is ignored.
 * After that our listener is gone, so a signal gets its default action, which needs no event loop.
 */
export function shutdownOnSignals(options: ShutdownOptions, signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): Shutdown {
  const shutdown = createShutdown({ watchdog: true, ...options });
  let first = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (first) return;
    first = true;
    void shutdown(signal);
    setTimeout(() => {
      for (const s of signals) process.removeListener(s, onSignal);
    }, REPEAT_SIGNAL_MS).unref();
  };
  for (const s of signals) process.on(s, onSignal);
  return shutdown;
}
