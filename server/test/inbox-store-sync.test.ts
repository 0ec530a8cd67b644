// Storing webhook deliveries in a SQLite file with synchronous=FULL: the commit's fsync runs off the
// main thread (db.ts deferredCommitSync), and no store is answered before an fsync begun after its
// commit has finished — duplicates included. Other writes keep the connection's setting.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createDb, deferredCommitSync, migrate, type Db } from '../src/db';
import { createLogger } from '../src/lib/logger';
import { createInbox, type NewDelivery } from '../src/modules/inbox/service';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-inbox-sync-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

let n = 0;
async function fileDb(synchronous?: 'FULL' | 'NORMAL'): Promise<Db> {
  const db = createDb({ client: 'sqlite', filename: path.join(dir, `inbox-${++n}.sqlite`), synchronous });
  await migrate(db);
  return db;
}

const delivery = (eventId: string): NewDelivery => ({ source: 'test', eventId, deliveryId: eventId, siteId: null, topic: 'orders/create', payload: { eventId }, status: 'received', receivedAt: new Date().toISOString() });

/** fs.fsync held: each waits until `release()`; `started()` counts them. */
function gatedFsync() {
  const fsync = fs.fsync.bind(fs);
  const waiting: Array<() => void> = [];
  let syncs = 0;
  vi.spyOn(fs, 'fsync').mockImplementation(((fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
    syncs++;
    waiting.push(() => fsync(fd, callback));
  }) as typeof fs.fsync);
  return {
    started: () => syncs,
    release: () => waiting.splice(0).forEach((r) => r()),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('storing deliveries in a SQLite file (synchronous=FULL)', () => {
  it('answers each store only after an fsync of the WAL begun after its commit', async () => {
    const db = await fileDb();
    try {
      const gate = gatedFsync();
      const opened = vi.spyOn(fs, 'openSync');
      const inbox = createInbox({ db, clock: { now: () => new Date() }, log: createLogger('silent') });
      const answered: string[] = [];
      const first = ['a', 'b', 'c'].map((id) => inbox.store(delivery(id)).then((r) => (answered.push(id), r)));
      await settle();
      // Committed (another connection sees the rows), not answered: the fsync is held.
      expect(await db('webhook_deliveries').count({ n: '*' }).first()).toMatchObject({ n: 3 });
      expect(gate.started()).toBe(1);
      expect(answered).toEqual([]);
      // Arriving while that fsync runs: a duplicate of a row not yet on disk waits for the next fsync too.
      const second = [inbox.store(delivery('a')).then((r) => (answered.push('a again'), r)), inbox.store(delivery('d')).then((r) => (answered.push('d'), r))];
      await settle();
      gate.release();
      const ids = await Promise.all(first);
      expect(ids.every((id) => typeof id === 'number')).toBe(true);
      expect(answered.sort()).toEqual(['a', 'b', 'c']);
      expect(opened.mock.calls.map((c) => String(c[0]))).toEqual([`${db.client.config.connection.filename}-wal`]);
      await vi.waitFor(() => expect(gate.started()).toBe(2));
      await settle();
      expect(answered).toHaveLength(3);
      gate.release();
      const [again, d] = await Promise.all(second);
      expect(again).toBeUndefined();
      expect(typeof d).toBe('number');
      expect(await db('webhook_deliveries').count({ n: '*' }).first()).toMatchObject({ n: 4 });
      // The connection is back to FULL for every other write.
      expect(await db.raw('pragma synchronous')).toEqual([{ synchronous: 2 }]);
    } finally {
      await db.destroy();
    }
  });

  it('a write that fails leaves the connection as it was and stores the good rows one by one', async () => {
    const db = await fileDb();
    try {
      const inbox = createInbox({ db, clock: { now: () => new Date() }, log: createLogger('silent') });
      // A NOT NULL column left empty: the group's statement fails, then only that row does.
      const bad = { ...delivery('bad'), receivedAt: null as unknown as string };
      const results = await Promise.allSettled([inbox.store(delivery('ok-1')), inbox.store(bad), inbox.store(delivery('ok-2'))]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await db('webhook_deliveries').pluck('event_id')).toEqual(['ok-1', 'ok-2']);
      expect(await db.raw('pragma synchronous')).toEqual([{ synchronous: 2 }]);
    } finally {
      await db.destroy();
    }
  });

  it('synchronous=NORMAL (SQLITE_SYNCHRONOUS) is left as set: no fsync of its own', async () => {
    const db = await fileDb('NORMAL');
    try {
      const gate = gatedFsync();
      const sync = deferredCommitSync(db)!;
      await sync.write((conn) => db('webhook_deliveries').insert({ source: 'test', event_id: 'n-1', payload: '{}', status: 'received', received_at: new Date().toISOString() }).connection(conn));
      await sync.sync();
      expect(gate.started()).toBe(0);
      expect(await db.raw('pragma synchronous')).toEqual([{ synchronous: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('an in-memory database has nothing to sync', async () => {
    const db = createDb({ client: 'sqlite', filename: ':memory:' });
    try {
      expect(deferredCommitSync(db)).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
