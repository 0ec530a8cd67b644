// The scheduled jobs: the calendar, one run per scheduled time across instances (database lease),
// a missed run caught up at start, a dead run recorded as failed, configs re-read on save.
import { afterAll, describe, expect, it } from 'vitest';
import { createScheduler } from '../src/jobs/scheduler';
import { addDays, dayIn, lastRunSlot, nextRunAt, resolveTargetDate } from '../src/lib/time';
import { bearer } from './harness';
import { createSyncWorld, person } from './sync-world';

describe('the jobs calendar', () => {
  it('next and most recent run times of a daily hour, in a time zone', () => {
    const at = new Date('2026-07-01T12:00:00Z');
    expect(nextRunAt(19, 'UTC', at).toISOString()).toBe('2026-07-01T19:00:00.000Z');
    expect(lastRunSlot(19, 'UTC', at).toISOString()).toBe('2026-06-30T19:00:00.000Z');
    expect(lastRunSlot(12, 'UTC', at).toISOString()).toBe('2026-07-01T12:00:00.000Z');
    // 19:00 in London in summer is 18:00 UTC.
    expect(nextRunAt(19, 'Europe/London', at).toISOString()).toBe('2026-07-01T18:00:00.000Z');
    expect(nextRunAt(2, 'UTC', new Date('2026-12-31T23:00:00Z')).toISOString()).toBe('2027-01-01T02:00:00.000Z');
  });

  it('targetDate: yesterday by default, today, or a fixed day', () => {
    const at = new Date('2026-03-01T00:30:00Z');
    expect(resolveTargetDate(undefined, at, 'UTC')).toBe('2026-02-28');
    expect(resolveTargetDate('yesterday', at, 'UTC')).toBe('2026-02-28');
    expect(resolveTargetDate('today', at, 'UTC')).toBe('2026-03-01');
    expect(resolveTargetDate('2026-01-05', at, 'UTC')).toBe('2026-01-05');
    expect(resolveTargetDate('today', at, 'America/New_York')).toBe('2026-02-28');
    expect(dayIn(at, 'Asia/Tokyo')).toBe('2026-03-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });
});

describe('sync scheduler', async () => {
  const s = await createSyncWorld({ constituents: [person('1', { date_modified: '2026-03-10T08:00:00.000Z' }), person('2', { date_modified: '2026-03-10T09:00:00.000Z' })] });
  const other = await createSyncWorld({});
  const { w } = s;
  // Wednesday 2026-03-11 20:30 UTC: the CRM job (19:00) ran for today's slot or missed it.
  w.clock.set(new Date('2026-03-11T20:30:00Z'));
  const runs = async (kind: string) => (await w.db('general_data').where({ type: 're-sync', site_id: w.sites.a, field2: kind }).orderBy('id')) as Array<{ id: number; name: string; status: string; field1: string; data: unknown }>;
  const schedulers: Array<ReturnType<typeof createScheduler>> = [];
  const scheduler = (sync = s.sync) => {
    const sch = createScheduler(s.deps, sync, { refreshEveryMs: 0 });
    schedulers.push(sch);
    return sch;
  };
  afterAll(async () => {
    for (const sch of schedulers) await sch.stop(100);
  });

  it('two instances on the same database fire the same scheduled time: one run', async () => {
    const a = s.makeSync({ holder: 'instance-a' });
    const b = s.makeSync({ holder: 'instance-b' });
    const slot = new Date('2026-03-11T19:00:00Z');
    const [ra, rb] = await Promise.all([scheduler(a).tick(w.sites.a, 're-sync', slot), scheduler(b).tick(w.sites.a, 're-sync', slot)]);
    expect([ra.ran, rb.ran].filter(Boolean)).toHaveLength(1);
    // A late firing of the same slot (clock skew) does not run it again either.
    expect((await scheduler(b).tick(w.sites.a, 're-sync', slot)).ran).toBe(false);
    const list = await runs('day');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ field1: '2026-03-10', name: 'schedule', status: 'success' });
    const lease = await s.sync.leases.get(`sync:${w.sites.a}:re-sync`);
    expect(lease).toMatchObject({ lastStatus: 'success', lastSlot: slot.toISOString(), holder: null, lastRecordId: list[0].id });
    // The next day's slot runs again.
    w.clock.set(new Date('2026-03-12T19:00:05Z'));
    expect((await scheduler(a).tick(w.sites.a, 're-sync', new Date('2026-03-12T19:00:00Z'))).ran).toBe(true);
    expect(await runs('day')).toHaveLength(2);
  });

  it('a run missed while no instance was up is caught up at start, once', async () => {
    // Registered long ago; last ran for the 12th; the app was down over the 13th's 04:00 export run.
    w.clock.set(new Date('2026-03-13T09:00:00Z'));
    const name = `sync:${w.sites.a}:export80`;
    await s.sync.leases.ensure(name);
    await w.db('job_leases').where({ name }).update({ registered_at: '2026-03-01T00:00:00.000Z', last_slot: '2026-03-12T04:00:00.000Z', last_status: 'success' });
    // the other jobs ran on time
    for (const job of ['re-sync', 'unsubscribe', 'export92']) {
      await s.sync.leases.ensure(`sync:${w.sites.a}:${job}`);
      await w.db('job_leases').where({ name: `sync:${w.sites.a}:${job}` }).update({ registered_at: '2026-03-01T00:00:00.000Z', last_slot: '2026-03-13T08:00:00.000Z' });
    }
    const first = scheduler(s.makeSync({ holder: 'instance-c' }));
    const second = scheduler(s.makeSync({ holder: 'instance-d' }));
    const [ca, cb] = await Promise.all([first.start(), second.start()]);
    expect(ca.caughtUp.map((c) => c.job)).toEqual(['export80']);
    expect(cb.caughtUp.map((c) => c.job)).toEqual(['export80']);
    await s.sync.idle();
    await new Promise((r) => setTimeout(r, 50));
    const list = await runs('export80');
    expect(list.filter((r) => r.name === 'catch-up')).toHaveLength(1);
    expect(await s.sync.leases.get(name)).toMatchObject({ lastSlot: '2026-03-13T04:00:00.000Z', lastStatus: 'success' });
    // A restart now has nothing to catch up.
    expect((await scheduler().catchUp()).length).toBe(0);
  });

  it('a fresh install does not run anything at start (nothing was missed)', async () => {
    other.w.clock.set(new Date('2026-03-13T09:00:00Z'));
    const sch = createScheduler(other.deps, other.sync, { refreshEveryMs: 0 });
    schedulers.push(sch);
    expect((await sch.start()).caughtUp).toEqual([]);
    expect(sch.nextRuns().filter((j) => j.siteId === other.w.sites.a).map((j) => [j.job, j.hour])).toEqual([
      ['re-sync', 19],
      ['unsubscribe', 2],
      ['export80', 4],
      ['export92', 6],
    ]);
  });

  it('a run whose instance died is recorded as failed in its run log, and another instance takes its slot over and finishes it', async () => {
    const sync = s.makeSync({ holder: 'instance-e' });
    const { id } = await sync.records.createRun(w.sites.a, 'unsubscribe', '2026-03-12', 'schedule', null);
    const name = `sync:${w.sites.a}:unsubscribe`;
    const slot = '2026-03-13T02:00:00.000Z';
    await w.db('job_leases')
      .where({ name })
      .update({ holder: 'dead-instance', last_status: 'running', lease_until: new Date(w.clock.now().getTime() - 5000).toISOString(), last_record_id: id, last_slot: slot });
    await scheduler(sync).start();
    await sync.idle();
    const lease = (await sync.leases.get(name))!;
    expect(lease).toMatchObject({ holder: null, lastSlot: slot });
    expect(['success', 'partial']).toContain(lease.lastStatus);
    expect(lease.lastRecordId).not.toBe(id);
    const res = await s.request().get(`/api/sites/site-a/raiser-edge-sync/${id}`).set(bearer(w.tokens.userA));
    expect(res.body.data.status).toBe('failed');
    expect(res.body.data.data.errors[0]).toMatchObject({ kind: 'crashed' });
    expect(res.body.data.data.errors[0].message).toMatch(/stopped before it finished.*taken over by instance-e/);
    const takeover = await s.request().get(`/api/sites/site-a/raiser-edge-sync/${lease.lastRecordId}`).set(bearer(w.tokens.userA));
    expect(takeover.body.data.data).toMatchObject({ trigger: 'catch-up', takeoverOf: id, slot, kind: 'unsubscribe' });
    const status = await s.request().get('/api/sites/site-a/sync-status').set(bearer(w.tokens.userA));
    expect(status.body.data.jobs.find((j: { job: string }) => j.job === 'unsubscribe')).toMatchObject({ lastStatus: lease.lastStatus, lastRecordId: lease.lastRecordId });
  });

  it('a run that throws is recorded failed with its error', async () => {
    w.clock.set(new Date('2026-03-14T07:00:00Z'));
    // The CRM is unreachable for the whole run.
    s.re.dropNext(20);
    const out = await scheduler().tick(w.sites.a, 're-sync', new Date('2026-03-13T19:00:00Z'));
    expect(out.ran).toBe(true);
    s.re.clearFaults();
    const lease = await s.sync.leases.get(`sync:${w.sites.a}:re-sync`);
    expect(lease).toMatchObject({ lastStatus: 'failed' });
    expect(lease!.lastError).toMatch(/could not be reached/);
    const last = (await runs('day')).pop()!;
    expect(last.status).toBe('failed');
  });

  it('saving an hour reschedules the job', async () => {
    const sch = scheduler();
    await sch.start();
    const before = sch.nextRuns().find((j) => j.siteId === w.sites.a && j.job === 'export92')!;
    expect(before.hour).toBe(6);
    const res = await s.request().post('/api/sites/site-a/sync-config/export92').set(bearer(w.tokens.userA)).send({ hour: '21' });
    expect(res.body.data.message).toBe('Sync config saved');
    await new Promise((r) => setTimeout(r, 100));
    const after = sch.nextRuns().find((j) => j.siteId === w.sites.a && j.job === 'export92')!;
    expect(after.hour).toBe(21);
    expect(new Date(after.nextRunAt!).getUTCHours()).toBe(21);
  });
});
