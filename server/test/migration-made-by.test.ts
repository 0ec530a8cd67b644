// The migration that gives print jobs their place (in house or the provider) marks the jobs that
// sends made before it existed, so they leave the Jobs queue; jobs an operator has started stay.
import { afterAll, describe, expect, it } from 'vitest';
import { migrationSource } from '../../migrations';
import { createDb, type Db } from '../src/db';
import { createPgDatabase } from './infra';

const BEFORE = '20261123_010_sync_jobs';
const THIS = '20261123_011_print_job_made_by';

async function freshDb(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return { db: createDb({ client: 'sqlite', filename: ':memory:' }), drop: async () => {} };
  const pg = await createPgDatabase(url, 'pw_mig');
  return { db: createDb({ client: 'pg', url: pg.url }), drop: pg.drop };
}

describe('migration: where a print job is made', async () => {
  const { db, drop } = await freshDb();
  afterAll(async () => {
    await db.destroy();
    await drop();
  });

  it('marks the unstarted jobs of sent orders and sent lines as the provider\'s; every other job stays in house', async () => {
    // The database as it was before this migration.
    const names = (await migrationSource.getMigrations([])) as string[];
    for (const name of names.slice(0, names.indexOf(BEFORE) + 1)) await db.migrate.up({ migrationSource, name });
    const at = '2026-11-20T10:00:00.000Z';
    const [site] = await db('sites').insert({ name: 'S', slug: 's', logo: null, theme: '{}', settings: '{"env":[]}', created_at: at, updated_at: at }).returning('id');
    const siteId = typeof site === 'object' ? site.id : site;
    const job = async (order: string, line: string, over: Record<string, unknown> = {}) => {
      const [r] = await db('print_jobs')
        .insert({ client_id: siteId, product_name: `${order}/${line}`, quantity: 1, shopify_order_id: order, line_item_id: line, is_printed: false, is_pdf_downloaded: false, is_re_printed: false, ready_for_print: true, artwork_urls: '[]', data: '{}', reprint_count: 0, created_at: at, updated_at: at, ...over })
        .returning('id');
      return typeof r === 'object' ? r.id : r;
    };
    const outbox = (key: string, payload: object, status: string) =>
      db('outbox').insert({ kind: 'hp-order', dedupe_key: key, site_id: siteId, payload: JSON.stringify(payload), status, attempts: 1, next_attempt_at: at, created_at: at, updated_at: at });
    const wholeSent = await job('1001', 'a');
    const wholeSentDownloaded = await job('1001', 'b', { is_pdf_downloaded: true });
    const lineSent = await job('1002', 'a');
    const lineNotSent = await job('1002', 'b');
    const failedSend = await job('1003', 'a');
    const neverSent = await job('1004', 'a');
    await outbox(`hp:${siteId}:1001`, { siteId, orderId: '1001', lineId: null, actorId: null }, 'sent');
    await outbox(`hp:${siteId}:1002:a`, { siteId, orderId: '1002', lineId: 'a', actorId: null }, 'sent');
    await outbox(`hp:${siteId}:1003`, { siteId, orderId: '1003', lineId: null, actorId: null }, 'failed');

    await db.migrate.up({ migrationSource, name: THIS });
    const madeBy = async (id: number) => (await db('print_jobs').where({ id }).first('made_by')).made_by;
    expect(await madeBy(wholeSent)).toBe('provider');
    expect(await madeBy(wholeSentDownloaded)).toBe('in_house');
    expect(await madeBy(lineSent)).toBe('provider');
    expect(await madeBy(lineNotSent)).toBe('in_house');
    expect(await madeBy(failedSend)).toBe('in_house');
    expect(await madeBy(neverSent)).toBe('in_house');
  });
});
