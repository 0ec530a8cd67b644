// Graceful shutdown (lib/shutdown.ts) and what it hands back: the order of its steps, idle
// keep-alive connections closed at once, requests under way finished (or cut at the drain time),
// readiness 503 and answers closing their connections from the moment it begins,
// the bound held when a step hangs; leases, inbox leases and outbox claims claimable again at once;
// a thread pool closed mid-task answering its callers, and no new pool started once stopped; a
// repeating worker's stop awaiting its pass; the exit watchdog; repeated signals.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app';
import type { Db } from '../src/db';
import { HttpError } from '../src/http/errors';
import { createLeases } from '../src/lib/leases';
import { createLogger } from '../src/lib/logger';
import { createShutdown, REPEAT_SIGNAL_MS, shutdownTimes, type ShutdownPlan, type ShutdownState } from '../src/lib/shutdown';
import { createThreadPool } from '../src/lib/threadPool';
import { buildArtworkPdf, renderFrontPagePng, stopPdfWorkers } from '../src/modules/pdf/printPdf';
import { handBackClaims, HP_ORDER_KIND, insertOnce, outboxRepo } from '../src/modules/fulfilment/outbox';
import { startRepeating } from '../src/modules/fulfilment/outboxWorker';
import { SHUTTING_DOWN } from '../src/modules/health/service';
import { inboxRepo } from '../src/modules/inbox/repo';
import { createInbox } from '../src/modules/inbox/service';
import { createServices, fileStoreFor } from '../src/services';
import { createWorld } from './harness';

const log = createLogger('silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

/** A server with `/` (answers at once) and `/slow` (answers when `slow.open()` is called). */
async function testServer() {
  const slow = gate();
  const server = http.createServer((req, res) => {
    if (req.url === '/slow') void slow.opened.then(() => res.end('slow done'));
    else res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, port, slow };
}

function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; body: string; connection: string | undefined; socketClosed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection, socketClosed: new Promise((r) => req.socket?.once('close', () => r())) }));
    });
    req.on('error', reject);
  });
}

/** A node process running `script` (ESM, through tsx) from the project root; ready once it wrote "ready" to stderr. */
async function childProcess(script: string, env: Record<string, string> = {}) {
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code, signal) => (clearTimeout(timer), resolve({ code, signal, at: Date.now() })));
  });
  let err = '';
  const readyAt = await new Promise<number>((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      if (err.includes('ready')) resolve(Date.now());
    });
    void exited.then(() => reject(new Error(`the child exited before it was ready: ${err}`)));
  });
  return { child, pid: child.pid!, readyAt, exited };
}

/** A plan that records its steps; `hang` names steps that never finish. */
function recordingPlan(hang: string[] = []) {
  const ran: string[] = [];
  const step = (name: string) => () => {
    ran.push(name);
    return hang.includes(name) ? new Promise(() => {}) : undefined;
  };
  const plan: ShutdownPlan = {
    stop: { workers: step('workers'), scheduler: step('scheduler') },
    interrupt: { pools: step('pools') },
    handBack: { leases: step('leases'), claims: step('claims') },
    close: { database: step('database') },
  };
  return { plan, ran };
}

function exitRecorder() {
  let resolve!: (v: { code: number; at: number }) => void;
  const exited = new Promise<{ code: number; at: number }>((r) => (resolve = r));
  return { exit: (code: number) => resolve({ code, at: Date.now() }), exited };
}

describe('graceful shutdown', () => {
  it('closes idle keep-alive connections at once, lets a request under way finish (then closes its connection), runs the steps in order, exits 0', async () => {
    const { server, port, slow } = await testServer();
    const agent = new http.Agent({ keepAlive: true });
    const idle = await get(port, '/', agent);
    expect(idle.body).toBe('ok');
    const other = new http.Agent({ keepAlive: true });
    const underWay = get(port, '/slow', other);
    await sleep(50);
    const { plan, ran } = recordingPlan();
    const { exit, exited } = exitRecorder();
    const began = Date.now();
    void createShutdown({ server, log, timeoutMs: 10_000, plan, exit })('test');
    // The idle connection goes now, not after the keep-alive timeout or the drain time.
    await Promise.race([idle.socketClosed, sleep(2000).then(() => Promise.reject(new Error('the idle connection was not closed')))]);
    expect(Date.now() - began).toBeLessThan(1000);
    expect(ran).toEqual(['workers', 'scheduler']);
    slow.open();
    const answer = await underWay;
    expect(answer).toMatchObject({ status: 200, body: 'slow done' });
    // Its connection, idle now, is not kept either.
    await Promise.race([answer.socketClosed, sleep(2000).then(() => Promise.reject(new Error('the connection of the finished request was kept')))]);
    const { code, at } = await exited;
    expect(code).toBe(0);
    // Done when the request was: well before the drain time (6.5 s of the 10 s bound) ran out.
    expect(at - began).toBeLessThan(5000);
    expect(ran).toEqual(['workers', 'scheduler', 'pools', 'leases', 'claims', 'database']);
    agent.destroy();
    other.destroy();
  });

  it('a request that never ends and a worker that never stops are cut at the drain time; held work is still handed back and the database closed; exit 0 within the bound', async () => {
    const { server, port } = await testServer();
    const agent = new http.Agent({ keepAlive: true });
    const never = get(port, '/slow', agent).catch((err: Error) => err);
    await sleep(50);
    const { plan, ran } = recordingPlan(['workers']);
    const { exit, exited } = exitRecorder();
    const timeoutMs = 2000;
    const began = Date.now();
    void createShutdown({ server, log, timeoutMs, plan, exit })('test');
    const { code, at } = await exited;
    expect(code).toBe(0);
    const took = at - began;
    expect(took).toBeGreaterThanOrEqual(shutdownTimes(timeoutMs).drainMs - 20);
    expect(took).toBeLessThan(timeoutMs);
    expect(ran).toEqual(['workers', 'scheduler', 'pools', 'leases', 'claims', 'database']);
    expect(await never).toBeInstanceOf(Error);
    agent.destroy();
  });

  it('a step that hangs: the process exits with 1 at the bound, and a second call does not start a second shutdown', async () => {
    const { server } = await testServer();
    const { plan, ran } = recordingPlan(['database']);
    const { exit, exited } = exitRecorder();
    const timeoutMs = 1000;
    const began = Date.now();
    const shutdown = createShutdown({ server, log, timeoutMs, plan, exit });
    const first = shutdown('SIGTERM');
    expect(shutdown('SIGTERM')).toBe(first);
    const { code, at } = await exited;
    expect(code).toBe(1);
    expect(at - began).toBeGreaterThanOrEqual(shutdownTimes(timeoutMs).exitMs - 20);
    expect(at - began).toBeLessThan(timeoutMs);
    expect(ran.filter((s) => s === 'workers')).toHaveLength(1);
  });

  it('a crash runs the whole plan like a signal but exits 1, also when it comes during a shutdown a signal began', async () => {
    const { server } = await testServer();
    const { plan, ran } = recordingPlan();
    const { exit, exited } = exitRecorder();
    const shutdown = createShutdown({ server, log, timeoutMs: 5000, plan, exit });
    const first = shutdown('SIGTERM');
    expect(shutdown('unhandled rejection', { failed: true })).toBe(first);
    expect((await exited).code).toBe(1);
    expect(ran).toEqual(['workers', 'scheduler', 'pools', 'leases', 'claims', 'database']);
  });

  it('the watchdog SIGKILLs a process whose exit is held past the bound, and ends with a process that exits', async () => {
    const script = `
      import http from 'node:http';
      import { createShutdown } from './server/src/lib/shutdown.ts';
      import { createLogger } from './server/src/lib/logger.ts';
      const server = http.createServer();
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      // A held exit: what libuv's thread-pool join or a worker stuck in native code does to process.exit.
      const exit = process.env.EXIT_HELD === '1' ? () => { for (;;); } : (code) => process.exit(code);
      process.stderr.write('ready\\n');
      void createShutdown({ server, log: createLogger('silent'), timeoutMs: 2000, plan: { stop: {}, interrupt: {}, handBack: {}, close: {} }, watchdog: true, exit })('test');
    `;
    const held = await childProcess(script, { EXIT_HELD: '1' });
    const heldEnd = await held.exited;
    expect(heldEnd.signal, 'killed by the watchdog').toBe('SIGKILL');
    expect(heldEnd.at - held.readyAt).toBeGreaterThanOrEqual(shutdownTimes(2000).exitMs);
    expect(heldEnd.at - held.readyAt).toBeLessThan(2000 + 1500);
    const clean = await childProcess(script, { EXIT_HELD: '0' });
    expect(await clean.exited).toMatchObject({ code: 0, signal: null });
    // The watchdog of the process that exited has gone too (looked for in /proc: Linux).
    if (process.platform !== 'linux') return;
    await sleep(300);
    const watchdogs = fs.readdirSync('/proc').filter((d) => {
      try {
        return /^\d+$/.test(d) && fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(`const parent = ${clean.pid};`);
      } catch {
        return false;
      }
    });
    expect(watchdogs).toEqual([]);
  }, 60_000);

  it('signals: a repeat within a second is the same stop request (the shutdown goes on); a later one ends the process at once', async () => {
    const script = `
      import http from 'node:http';
      import { shutdownOnSignals } from './server/src/lib/shutdown.ts';
      import { createLogger } from './server/src/lib/logger.ts';
      const server = http.createServer();
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      // Background work that takes 3 s to stop.
      const plan = { stop: { slow: () => new Promise((r) => setTimeout(r, 3000)) }, interrupt: {}, handBack: {}, close: {} };
      shutdownOnSignals({ server, log: createLogger('silent'), timeoutMs: 20000, plan });
      process.stderr.write('ready\\n');
    `;
    const repeated = await childProcess(script);
    repeated.child.kill('SIGTERM');
    await sleep(50);
    repeated.child.kill('SIGTERM');
    const repeatedEnd = await repeated.exited;
    expect(repeatedEnd).toMatchObject({ code: 0, signal: null });
    expect(repeatedEnd.at - repeated.readyAt).toBeGreaterThanOrEqual(2900);

    const later = await childProcess(script);
    later.child.kill('SIGTERM');
    await sleep(REPEAT_SIGNAL_MS + 500);
    const second = Date.now();
    later.child.kill('SIGTERM');
    const laterEnd = await later.exited;
    expect(laterEnd.signal).toBe('SIGTERM');
    expect(laterEnd.at - second).toBeLessThan(1000);
  }, 60_000);

  it("a repeating worker's stop resolves once its pass under way has finished, and no pass starts after it", async () => {
    const pass = gate();
    let passes = 0;
    const worker = startRepeating(
      async () => {
        passes++;
        await pass.opened;
      },
      { intervalMs: 10, what: 'test pass' },
    );
    await sleep(30);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await sleep(30);
    expect(stopped).toBe(false);
    pass.open();
    await stopping;
    await sleep(50);
    expect(passes).toBe(1);
  });

  it('a thread pool closed mid-task answers its running and queued tasks with a 503 at once', async () => {
    const pool = createThreadPool<null, null>({
      entry: '../test/fixtures/spinWorker', // under server/src, as the pools name theirs
      size: 1,
      resourceLimits: { maxOldGenerationSizeMb: 64 },
      text: { tooLong: 'too long', outOfMemory: 'out of memory', failed: 'Spinning' },
      replyError: (reply) => new HttpError(500, reply.message),
    });
    const tasks = [pool.run(null, 60_000), pool.run(null, 60_000), pool.run(null, 60_000)].map((p) => p.then(() => 'answered', (err: unknown) => err));
    await sleep(1500); // the worker has started and is busy with the first task
    const began = Date.now();
    await pool.close();
    const outcomes = await Promise.all(tasks);
    expect(Date.now() - began).toBeLessThan(5000);
    for (const o of outcomes) expect(o).toMatchObject({ status: 503, message: 'Spinning stopped: the server is shutting down' });
  }, 20_000);
});

describe('readiness during the drain', async () => {
  const w = await createWorld();

  it('a readiness probe under way when the shutdown begins answers 503 "shutting down" and closes its connection; probes during the drain too; liveness stays ok', async () => {
    const state: ShutdownState = { begun: false };
    // The probe's database check waits while `holding`: the probe is under way when the shutdown begins.
    let holding = false;
    const pinged = gate();
    const reply = gate();
    const db = new Proxy(w.db, {
      get: (target, p) =>
        p === 'raw' && holding
          ? (...args: Parameters<Db['raw']>) => {
              pinged.open();
              return reply.opened.then(() => target.raw(...args));
            }
          : Reflect.get(target, p),
    }) as Db;
    const deps = { db, clock: w.clock, config: { ...w.config, ready: { minFreeMb: 0 } }, log, shuttingDown: () => state.begun };
    const { app } = createApp(deps, createServices(deps, fileStoreFor(w.dataDir)));
    const server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    // Background work that stops when told: the drain lasts until then.
    const background = gate();
    const { exit, exited } = exitRecorder();
    // Made at start-up, before any request, as main.ts does.
    const shutdown = createShutdown({ server, state, log, timeoutMs: 20_000, plan: { stop: { work: () => background.opened }, interrupt: {}, handBack: {}, close: {} }, exit });
    const agent = new http.Agent({ keepAlive: true });

    const before = await get(port, '/api/health/ready', agent);
    expect(before.status, before.body).toBe(200);
    expect(before.connection).toBe('keep-alive');

    holding = true;
    const probe = get(port, '/api/health/ready', agent);
    await pinged.opened;
    void shutdown('test');
    reply.open();
    const during = await probe;
    expect(during.status).toBe(503);
    expect(during.connection).toBe('close');
    expect(JSON.parse(during.body)).toEqual({ success: false, error: 'Not ready: shutdown', data: SHUTTING_DOWN });
    expect(SHUTTING_DOWN.checks).toEqual([{ name: 'shutdown', ok: false, reason: 'this instance is shutting down' }]);

    // Still draining (the background work has not stopped): not ready, alive.
    const ready = await supertest(app).get('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error).toBe('Not ready: shutdown');
    const live = await supertest(app).get('/api/health');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ success: true, data: { status: 'ok' } });

    background.open();
    expect((await exited).code).toBe(0);
    agent.destroy();
  });
});

describe('thread pools at shutdown', () => {
  // Stopped is for good in this module instance: the files the same test worker runs next load a fresh one.
  afterAll(() => vi.resetModules());

  it('stopped PDF workers start no new pool: a print file or page render asked for afterwards answers 503 at once', async () => {
    await stopPdfWorkers();
    const file = { owner: 'job 1', title: 'print-file.pdf', createdAt: new Date(0).toISOString() };
    await expect(buildArtworkPdf([Buffer.alloc(1024)], { file })).rejects.toMatchObject({ status: 503, message: 'PDF generation stopped: the server is shutting down' });
    await expect(renderFrontPagePng(Buffer.from('%PDF-1.7\n'), 3)).rejects.toMatchObject({ status: 503 });
  });
});

describe('handing back held work', async () => {
  const w = await createWorld();
  const iso = (ms = 0) => new Date(w.clock.now().getTime() + ms).toISOString();

  it("a job lease: runs out at once (the run still reads running), is taken by another instance right away, and is not renewed by the stopping one", async () => {
    const stopping = createLeases({ db: w.db, clock: w.clock, holder: 'stopping', ttlSeconds: 600 });
    const other = createLeases({ db: w.db, clock: w.clock, holder: 'other', ttlSeconds: 600 });
    const running = gate();
    const run = stopping.run('test:job', {}, async () => {
      await running.opened;
      return { status: 'success' as const };
    });
    for (let i = 0; i < 50 && (await stopping.get('test:job'))?.holder !== 'stopping'; i++) await sleep(10);
    expect(await other.acquire('test:job')).toBe(false);

    expect(await stopping.handBack()).toBe(1);
    const row = await stopping.get('test:job');
    expect(row).toMatchObject({ holder: 'stopping', lastStatus: 'running' });
    expect(row!.leaseUntil! < iso()).toBe(true);
    expect(await stopping.renew('test:job')).toBe(0);
    expect(await stopping.acquire('test:job')).toBe(false);
    // Another instance takes it now, not 600 s from now.
    expect((await other.reapExpired('test:'))[0]).toMatchObject({ name: 'test:job', holder: 'stopping' });
    expect(await other.acquire('test:job')).toBe(true);
    running.open();
    await run;
    expect(await other.get('test:job')).toMatchObject({ holder: 'other', lastStatus: 'running' });
  });

  it('an inbox lease: the delivery is to process again at once; nothing new is processed once stopped', async () => {
    const inbox = createInbox({ db: w.db, clock: w.clock, log });
    const processing = gate();
    const seen: number[] = [];
    inbox.register({
      source: 'test-lease',
      mode: 'lease',
      process: async (d) => {
        seen.push(d.id);
        await processing.opened;
      },
    });
    const delivery = (eventId: string) => inboxRepo(w.db).insert({ source: 'test-lease', eventId, deliveryId: null, siteId: w.sites.a, topic: null, payload: {}, status: 'received', receivedAt: iso(-1000) });
    const first = (await delivery('held-1'))!;
    const processed = inbox.processDelivery(first);
    for (let i = 0; i < 50 && !seen.length; i++) await sleep(10);
    expect((await w.db('webhook_deliveries').where({ id: first }).first()).locked_until).not.toBeNull();

    const stopped = inbox.stop();
    expect(await inbox.handBack()).toBe(1);
    expect(await w.db('webhook_deliveries').where({ id: first }).first()).toMatchObject({ status: 'received', locked_until: null });
    expect(await inboxRepo(w.db).pendingIds(['test-lease'], 10, iso(), 10)).toContain(first);

    const second = (await delivery('after-stop-1'))!;
    inbox.processSoon(second);
    processing.open();
    await processed;
    await stopped;
    expect(seen).toEqual([first]);
    expect(await w.db('webhook_deliveries').where({ id: second }).first()).toMatchObject({ status: 'received', locked_until: null });
  });

  it('outbox claims: a claim under way is claimable again at once, a finished send is left alone, and no new claim is taken', async () => {
    const repo = outboxRepo(w.db);
    const payload = (orderId: string) => ({ siteId: w.sites.a, orderId, lineId: null, actorId: null });
    for (const orderId of ['held', 'done', 'later']) await insertOnce(w.db, { kind: HP_ORDER_KIND, dedupeKey: `test:${orderId}`, siteId: w.sites.a, payload: payload(orderId), at: iso(-1000) });
    const [held, done, later] = await Promise.all(['held', 'done', 'later'].map(async (k) => (await repo.byKey(`test:${k}`))!.id));
    expect(await repo.claim(held, iso(), iso(600_000), false)).toBeTruthy();
    expect(await repo.claim(done, iso(), iso(600_000), false)).toBeTruthy();
    expect(await repo.markSent(done, { hpOrderId: 'HP-1' }, iso())).toBe(1);
    expect(await repo.dueIds(iso(), 10)).toEqual([later]);

    expect(await handBackClaims(w.db)).toBe(1);
    expect(await repo.byId(held)).toMatchObject({ status: 'pending', lockedUntil: null, attempts: 1 });
    expect(await repo.byId(done)).toMatchObject({ status: 'sent' });
    expect((await repo.dueIds(iso(), 10)).sort()).toEqual([held, later].sort());
    expect(await repo.claim(later, iso(), iso(600_000), false)).toBeUndefined();
  });
});
