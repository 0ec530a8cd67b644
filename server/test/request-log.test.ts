// The request log never holds a caller's credentials: a postback token or session in a header, a
// webhook key or OAuth code in the query. The path and the other parameters stay, for tracing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDb, migrate } from '../src/db';
import { maskUrl, requestForLog } from '../src/lib/requestLog';
import { createServices, fileStoreFor } from '../src/services';
import { testClock } from './harness';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('the request log', () => {
  it('masks secret query values and keeps the rest of the URL', () => {
    expect(maskUrl('/api/sites/acme/raiser-edge-webhook?webhookKey=k3y&x=1')).toBe('/api/sites/acme/raiser-edge-webhook?webhookKey=[redacted]&x=1');
    expect(maskUrl('/api/sync/callback?code=abc&state=s7&site=acme')).toBe('/api/sync/callback?code=[redacted]&state=[redacted]&site=acme');
    expect(maskUrl('/api/print-jobs?page=2')).toBe('/api/print-jobs?page=2');
    expect(maskUrl('/api/x?%77ebhookKey=k3y')).toBe('/api/x?%77ebhookKey=[redacted]');
    expect(requestForLog({ url: '/a?token=t', query: { token: 't', q: 'robin' }, headers: { 'x-postback-token': 'p', Cookie: 'c', accept: 'json' } })).toEqual({
      url: '/a?token=[redacted]',
      query: { token: '[redacted]', q: 'robin' },
      headers: { 'x-postback-token': '[redacted]', Cookie: '[redacted]', accept: 'json' },
    });
  });

  it('a logged call carries no header or query credential', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-reqlog-'));
    dirs.push(dataDir);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'info', SEED_DEMO: '0' }), database: { client: 'sqlite' as const, filename: ':memory:' } };
    const db = createDb(config.database);
    await migrate(db);
    const deps = { db, clock: testClock(), config, log: pino({ level: 'info' }, sink) };
    const { app } = createApp(deps, createServices(deps, fileStoreFor(dataDir)));
    await supertest(app).post('/api/sites/nowhere/hp-webhook?webhookKey=QUERY-SECRET-1&page=7').set('x-postback-token', 'HEADER-SECRET-2').set('Authorization', 'Bearer HEADER-SECRET-3').send({});
    await db.destroy();
    const log = lines.join('');
    expect(log).toContain('/hp-webhook?webhookKey=[redacted]&page=7');
    for (const secret of ['QUERY-SECRET-1', 'HEADER-SECRET-2', 'HEADER-SECRET-3']) expect(log).not.toContain(secret);
  });
});
