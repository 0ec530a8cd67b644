// STORAGE=s3 at start: a bucket that cannot take a write stops the server with the reason, exit 1,
// no stack trace; a usable one starts it.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from './serverProcess';
import { startTestS3, type TestS3 } from './s3Server';

const children: ChildProcess[] = [];
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await s3?.close();
});

function startServer(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-start-'));
  return startServerProcess(dataDir, { JWT_SECRET: 'start-test-secret-that-is-long-enough-0123456789', ...env }, (c) => children.push(c));
}

const closedPort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

describe('STORAGE=s3 at start', () => {
  it('an unreachable endpoint, a wrong key, a missing bucket: exit 1 with the reason; a good bucket: running', async () => {
    const good = s3.env('start/');
    const cases: Array<{ env: Record<string, string>; reason: string }> = [
      { env: { ...good, S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}` }, reason: "the bucket's endpoint cannot be reached (ECONNREFUSED)" },
      { env: { ...good, S3_SECRET_ACCESS_KEY: 'not-the-secret' }, reason: 'the bucket refused the access key (SignatureDoesNotMatch)' },
      { env: { ...good, S3_BUCKET: 'no-such-bucket' }, reason: 'the bucket does not exist (NoSuchBucket)' },
    ];
    const started = cases.map((c) => ({ ...c, server: startServer(c.env) }));
    for (const { server, reason, env } of started) {
      expect(await server.outcome, server.output()).toEqual({ running: false, code: 1 });
      expect(server.stderr()).toContain(`Presswork cannot start: the file store (bucket ${env.S3_BUCKET} (prefix start/) at ${env.S3_ENDPOINT}) cannot be used: ${reason}`);
      expect(server.output()).not.toMatch(/\n\s+at /);
    }
    const ok = startServer(good);
    expect(await ok.outcome, ok.output()).toEqual({ running: true });
    ok.child.kill('SIGTERM');
    expect(await ok.exited).toBe(0);
  }, 120_000);
});
