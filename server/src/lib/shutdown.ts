// Graceful shutdown on SIGTERM/SIGINT, in one place, within SHUTDOWN_TIMEOUT_MS whatever is under way:
//  1. stop accepting: the listener closes, idle keep-alive connections close now, and every answer
//     from here on closes its connection;
//  2. `stop`: background work stops (a stop may answer a promise: its pass under way has finished)
//     while requests under way finish — both until they are done or the drain time is up;
//  3. connections still open are closed;
//  4. `handBack`: what this instance still holds (leases, claims) goes back to claimable now;
//  5. `close`: thread pools, then the database; exit 0 (1 if a step of 4–5 did not finish in time).
// A hard timer (not unref'd) exits with 1 at the bound whatever is still running. The logger cannot hold the
// exit (logDestination.ts). A second signal ends the process at once: our listener is gone by then,
// so the signal's default action applies, which needs no event loop.
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { EXIT_FLUSH_MS } from './logDestination';

/** Named steps, run in the order written; a step may answer a promise (awaited within its phase's time). */
export type ShutdownSteps = Record<string, () => unknown>;

export interface ShutdownPlan {
  /** Background work (workers, timers, schedulers, simulators): stopped first, all at once. */
  stop: ShutdownSteps;
  /** Held work given back once requests and background work are done (the database is still open). */
  handBack: ShutdownSteps;
  /** Closed last, one after the other: thread pools, then the database. */
  close: ShutdownSteps;
}

export interface ShutdownOptions {
  server: Server;
  log: Logger;
  timeoutMs: number;
  plan: ShutdownPlan;
  /** How the process ends (tests pass a fake). */
  exit?: (code: number) => void;
}

/** The part of the bound kept for steps 3–5 after the drain: a quarter, between 0.5 s and 3 s. */
export const afterDrainMs = (timeoutMs: number) => Math.min(3000, Math.max(500, Math.floor(timeoutMs / 4)));

const sleepUntil = (at: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())).unref());

/** Answers a function that shuts down once (a second call answers the first one's promise). */
export function createShutdown({ server, log, timeoutMs, plan, exit = (code) => process.exit(code) }: ShutdownOptions): (reason: string) => Promise<void> {
  let started: Promise<void> | undefined;

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
    // The exit flush of the logger fits inside the bound too.
    const hardAt = began + timeoutMs - EXIT_FLUSH_MS;
    const hard = setTimeout(() => {
      log.error({ reason, timeoutMs }, 'shutdown did not finish in time: exiting now');
      exit(1);
    }, hardAt - began);
    const drainUntil = hardAt - afterDrainMs(timeoutMs);
    log.info({ reason, timeoutMs }, 'shutting down');

    // 1. No new connections; idle ones closed now (and again while the drain lasts: a connection whose
    //    answer was already on its way when we began goes idle later); every answer closes its connection.
    const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.prependListener('request', (_req, res) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    });
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();

    // 2. Background work stops while requests under way finish.
    await Promise.all([phase('stop', plan.stop, drainUntil, false), Promise.race([httpClosed, sleepUntil(drainUntil)])]);
    clearInterval(sweep);

    // 3. Whatever is still open is cut.
    server.closeAllConnections();

    // 4–5. Held work back, then pools and database, within what is left of the bound.
    const closeFrom = hardAt - Math.min(1000, afterDrainMs(timeoutMs) / 2);
    const unfinished = [...(await phase('handBack', plan.handBack, closeFrom, true)), ...(await phase('close', plan.close, hardAt, true))];
    clearTimeout(hard);
    log.info({ reason, ms: Date.now() - began, unfinished }, 'shut down');
    // 1: something may still be held (until its lease runs out) or was not closed cleanly.
    exit(unfinished.length ? 1 : 0);
  }

  return (reason) => (started ??= shutdown(reason));
}

/** Shuts down on the first of these signals; the second ends the process at once. */
export function shutdownOnSignals(options: ShutdownOptions, signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): (reason: string) => Promise<void> {
  const shutdown = createShutdown(options);
  const onSignal = (signal: NodeJS.Signals) => {
    for (const s of signals) process.removeListener(s, onSignal);
    void shutdown(signal);
  };
  for (const s of signals) process.on(s, onSignal);
  return shutdown;
}
