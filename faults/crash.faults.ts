// A crash on a real app process — an unhandled promise rejection, an uncaught exception — goes
// through the shutdown plan: it is logged, the provider sends it had claimed (10-minute leases) are
// handed back, the SQLite database claim is given up, and the process exits with 1. A restart on the
// same database starts at once and sends the handed-back orders, not 10 minutes later.
import { afterEach, describe, expect, it } from 'vitest';
import { appProcess } from './lib/appProcess';
import { createHpSite, deliverOrder, planOrders, startHpSim, waitFor } from './lib/hp';
import { openAppDb } from './lib/inspect';
import { signIn, sleep } from './lib/store';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
});

describe('a crash goes through the shutdown plan', () => {
  for (const [crash, logged] of [
    ['rejection', 'unhandled rejection: shutting down'],
    ['exception', 'uncaught exception: shutting down'],
  ] as const) {
    it(`an ${logged.split(':')[0]}: logged, leases and the database claim handed back, exit code 1`, async () => {
      const seed = 4242;
      const hp = await startHpSim({ seed });
      cleanups.push(hp.close);
      const app = appProcess({ SHUTDOWN_TIMEOUT_MS: '10000', OUTBOX_LEASE_SECONDS: '600', LOG_LEVEL: 'info', CRASH_WITH: crash }, { entry: 'faults/lib/crashingMain.ts' });
      cleanups.push(() => app.stop());
      const fail = (err: unknown): never => {
        throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- app log ---\n${app.log().slice(-4000)}`);
      };
      await app.start().catch(fail);
      const db = openAppDb(app);
      cleanups.push(() => db.destroy());
      const token = await signIn(app.baseUrl);
      const hpSite = await createHpSite(app.baseUrl, token, `crash-${crash}`, hp.baseUrl, { HP_AUTO_SEND: '1' });

      // A provider send in flight: claimed with a 10-minute lease, its answer held by the provider.
      const orders = planOrders(2, seed);
      hp.sim.holdNext(orders.length);
      await Promise.all(orders.map((o) => deliverOrder([app.baseUrl], hpSite, o))).catch(fail);
      await Promise.race([hp.sim.whenHeld(1), sleep(30_000)]);
      expect(hp.sim.heldCount(), 'a provider send in flight').toBeGreaterThan(0);
      expect(await db('outbox').where({ site_id: hpSite.siteId }).whereNotNull('locked_until').first(), 'a send claimed').toBeTruthy();

      process.kill(app.pid!, 'SIGUSR2');
      const end = await app.exited(20_000);
      hp.sim.releaseHeld(); // to nobody: the app has gone
      expect(end, `the process exited by itself\n${app.log().slice(-3000)}`).toEqual({ code: 1, signal: null });
      const lines = app
        .log()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; reason?: string; unfinished?: string[]; err?: { message: string } });
      const crashLine = lines.find((l) => l.msg === logged);
      expect(crashLine, `the crash is logged\n${app.log().slice(-3000)}`).toMatchObject({ level: 60, err: { message: expect.stringContaining('crash test') } });
      // The whole plan ran, nothing left unfinished (the database claim is the last step of it).
      expect(lines.find((l) => l.msg === 'shut down')).toMatchObject({ reason: logged.split(':')[0], unfinished: [] });

      // Nothing held: the claimed sends are claimable now, not in 10 minutes.
      expect(await db('outbox').where({ site_id: hpSite.siteId, status: 'pending' }).whereNotNull('locked_until').select('id')).toEqual([]);

      // The same database starts again at once (its claim is free), and sends the handed-back orders.
      await app.start().catch(fail);
      await waitFor('the handed-back sends to be sent', async () => !(await db('outbox').where({ site_id: hpSite.siteId, status: 'pending' }).first()), 60_000, 100).catch(fail);
    });
  }
});
