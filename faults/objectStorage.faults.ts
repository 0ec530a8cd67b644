// Files in one S3-compatible bucket shared by two instances on PostgreSQL, each with its own
// DATA_DIR (no shared disk): an upload made through one is read and printed by the other; an
// instance killed while it checks direct uploads loses none; storage:migrate killed half-way
// finishes on a re-run, every copy verified; the bucket unreachable for a while: both instances say
// so (not ready, 503 naming why), orders keep coming in, and once it answers again every file that
// was asked for is there, whole, and nothing half-made ever was.
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Store } from '../server/src/modules/uploads';
import { startTestS3, S3_TEST_KEY, type TestS3 } from '../server/test/s3Server';
import { appProcess, freshPostgres, twoInstances, type AppProcess } from './lib/appProcess';
import { api, waitFor } from './lib/hp';
import { expectStormStored, openAppDb, waitUntilProcessed } from './lib/inspect';
import { createStoreSite, deliverAll, planStorm, signIn, webhookUrl } from './lib/store';
import { tcpSwitch } from './lib/tcpSwitch';

const root = path.resolve(import.meta.dirname, '..');
let s3: TestS3;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  s3 = await startTestS3('presswork-faults');
  cleanups.push(() => s3.close());
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

const bucketAt = (prefix: string) => s3Store({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, prefix, credentials: S3_TEST_KEY });

/** An A5 page at 300 dpi, as JPEG: real artwork the print file and the sheets accept. */
const artwork = (shade: number) => sharp({ create: { width: 1748, height: 2480, channels: 3, background: { r: shade, g: 120, b: 200 } } }).jpeg({ quality: 80 }).toBuffer();

/** A direct upload into the bucket (the presigned PUT); its /files/ address, not read yet. */
async function uploadTo(app: AppProcess, token: string, bytes: Buffer, name: string): Promise<string> {
  const res = await fetch(`${app.baseUrl}/api/users/me/get-upload-url`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ serverSidePath: `artwork/${name}`, contentType: 'image/jpeg', contentLength: bytes.length }),
  });
  const body = (await res.json()) as { data: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  const put = await fetch(body.data, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'Content-Type': 'image/jpeg' } });
  expect(put.status).toBe(200);
  return new URL(res.headers.get('x-file-url')!).pathname;
}

const bytesAt = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('two instances, one bucket, no shared disk', () => {
  it('upload through one, print file and batch sheet from the other; one killed mid-check loses no upload', async () => {
    const pg = await freshPostgres();
    cleanups.push(pg.drop);
    const prefix = `faults-${crypto.randomBytes(3).toString('hex')}/`;
    // One after the other: the first migrates the fresh database, the second finds it ready.
    const env = { DATABASE_URL: pg.url, ...s3.env(prefix) };
    const apps = [appProcess(env), appProcess(env)];
    for (const a of apps) cleanups.push(() => a.stop());
    const fail = (err: unknown): never => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- app logs ---\n${apps.map((a, i) => `[instance ${i}]\n${a.log().slice(-3000)}`).join('\n')}`);
    };
    for (const a of apps) await a.start().catch(fail);
    const [one, two] = apps;
    expect(one.dataDir).not.toBe(two.dataDir);
    try {
      const token = await signIn(one.baseUrl);
      const site = await createStoreSite(one.baseUrl, token, 'bucket-shop');

      // Uploaded through one, read through the other (which checks it on that first read).
      const page = await artwork(40);
      const fileUrl = await uploadTo(one, token, page, 'front.jpg');
      expect(fileUrl.startsWith('/files/')).toBe(true);
      const read = await bytesAt(`${two.baseUrl}${fileUrl}`);
      expect(read.status).toBe(200);
      expect(read.bytes.equals(page)).toBe(true);

      // A print job of those pages; its print file drawn by the other instance, kept in the bucket per site.
      const job = await api<{ data: { id: number } }>(one.baseUrl, token, 'POST', '/api/print-jobs', { clientId: site.siteId, productName: 'Bucket card', artworkUrls: Array(4).fill(fileUrl) });
      expect(job.status, JSON.stringify(job.body)).toBe(200);
      const jobId = job.body.data.id;
      const pdfOf = (app: AppProcess) => bytesAt(`${app.baseUrl}/api/pdf/from-print-job`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ id: jobId }) });
      const drawn = await pdfOf(two);
      expect(drawn.status, drawn.bytes.toString().slice(0, 300)).toBe(200);
      expect(drawn.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const cached = (await bucketAt(prefix).list(`${site.siteId}/print-files/`)).map((f) => f.key);
      expect(cached).toHaveLength(1);
      expect((await pdfOf(one)).bytes.equals(drawn.bytes)).toBe(true);

      // The batch sheet, imposed by the other instance from the shared print files.
      const batch = await api<{ data: { id: number } }>(one.baseUrl, token, 'POST', '/api/batches', { jobIds: [jobId] });
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      const sheet = await bytesAt(`${two.baseUrl}/api/batches/${batch.body.data.id}/pdf`, { headers: { Authorization: `Bearer ${token}` } });
      expect(sheet.status, sheet.bytes.toString().slice(0, 300)).toBe(200);
      expect(sheet.bytes.subarray(0, 5).toString()).toBe('%PDF-');

      // Killed while it checks direct uploads on their first read: the other then reads each one whole.
      const pages = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => artwork(40 + i * 20)));
      const urls = await Promise.all(pages.map((p, i) => uploadTo(one, token, p, `late-${i}.jpg`)));
      const reads = urls.map((u) => fetch(`${two.baseUrl}${u}`).catch(() => null));
      await new Promise((r) => setTimeout(r, 40));
      await two.kill();
      await Promise.all(reads);
      for (const [i, u] of urls.entries()) {
        const again = await bytesAt(`${one.baseUrl}${u}`);
        expect(again.status, u).toBe(200);
        expect(again.bytes.equals(pages[i]), u).toBe(true);
      }
      await two.start();

      // Nothing half-made in the bucket: every print file there is a whole PDF.
      const bucket = bucketAt(prefix);
      for (const f of await bucket.list(`${site.siteId}/print-files/`)) {
        const pdf = (await bucket.read(f.key))!;
        expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
        expect(pdf.subarray(-8).toString()).toMatch(/%%EOF\s*$/);
      }
    } catch (err) {
      fail(err);
    }
  }, 300_000);
});

describe('storage:migrate killed half-way', () => {
  it('a re-run completes; every file in the bucket has the size and SHA-256 of its original', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-faults-migrate-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const files = new Map<string, Buffer>();
    for (let i = 0; i < 30; i++) {
      const key = `shared/artwork/${i}-${crypto.randomBytes(4).toString('hex')}.bin`;
      const bytes = crypto.randomBytes(i % 5 === 0 ? 9 * 1024 * 1024 : 300_000);
      files.set(key, bytes);
      fs.mkdirSync(path.dirname(path.join(dataDir, 'files', key)), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'files', key), bytes);
    }
    const prefix = `migrate-${crypto.randomBytes(3).toString('hex')}/`;
    const env = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), ...s3.env(prefix), STORAGE: 'local' };
    const bucket = bucketAt(prefix);

    // Killed (SIGKILL) once some files are in the bucket.
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/cli/storage-migrate.ts'], { cwd: root, env, stdio: 'ignore' });
    await waitFor('some files copied', async () => (await bucket.list('shared/')).length >= 3, 120_000, 100);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const before = (await bucket.list('shared/')).length;
    expect(before).toBeLessThan(files.size);

    const rerun = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const c = execFile(process.execPath, ['--import', 'tsx', 'server/src/cli/storage-migrate.ts'], { cwd: root, env, encoding: 'utf8' }, (_e, stdout, stderr) => resolve({ code: c.exitCode, stdout, stderr }));
    });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toMatch(/each read back with the same size and SHA-256/);
    const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
    for (const [key, bytes] of files) {
      const copy = await bucket.read(key);
      expect(copy?.length, key).toBe(bytes.length);
      expect(sha(copy!), key).toBe(sha(bytes));
    }
  }, 300_000);
});

describe('the bucket unreachable for a while', () => {
  it('both instances say so and lose nothing; once it answers, every file is there and whole', async () => {
    const pg = await freshPostgres();
    cleanups.push(pg.drop);
    const s3url = new URL(s3.endpoint);
    const line = await tcpSwitch({ host: s3url.hostname, port: Number(s3url.port) });
    cleanups.push(() => line.close());
    const prefix = `outage-${crypto.randomBytes(3).toString('hex')}/`;
    const { apps, fail } = await twoInstances({ DATABASE_URL: pg.url, ...s3.env(prefix), S3_ENDPOINT: line.endpoint }, cleanups);
    const [one, two] = apps;
    const db = openAppDb(one, pg.url);
    cleanups.push(() => db.destroy());
    try {
      const token = await signIn(one.baseUrl);
      const site = await createStoreSite(one.baseUrl, token, 'outage-shop');
      const page = await artwork(90);
      const fileUrl = await uploadTo(one, token, page, 'front.jpg');
      const job = await api<{ data: { id: number } }>(one.baseUrl, token, 'POST', '/api/print-jobs', { clientId: site.siteId, productName: 'Outage card', artworkUrls: Array(4).fill(fileUrl) });
      expect(job.status, JSON.stringify(job.body)).toBe(200);
      const pdfOf = (app: AppProcess) => bytesAt(`${app.baseUrl}/api/pdf/from-print-job`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ id: job.body.data.id }) });

      line.cut();
      // Each instance: not ready, naming the store; a file or a print file asked for: 503 saying
      // why and when to retry — never a 404 that would read as "gone", never a stack trace.
      for (const app of apps) {
        await waitFor('not ready while the bucket is away', async () => (await fetch(`${app.baseUrl}/api/health/ready`)).status === 503, 60_000);
        const ready = (await (await fetch(`${app.baseUrl}/api/health/ready`)).json()) as { data: { checks: Array<{ name: string; ok: boolean; reason?: string }> } };
        const storage = ready.data.checks.find((c) => c.name === 'storage');
        expect(storage?.ok).toBe(false);
        expect(storage?.reason).toMatch(/bucket/);
        const file = await fetch(`${app.baseUrl}${fileUrl}`);
        expect(file.status).toBe(503);
        expect(file.headers.get('retry-after')).toBe('30');
        expect(((await file.json()) as { error: string }).error).toMatch(/^Files cannot be stored or read just now: .*Nothing was lost; try again in a moment\.$/);
      }
      const drawn = await pdfOf(two);
      expect(drawn.status, drawn.bytes.toString().slice(0, 300)).toBe(503);
      const answer = JSON.parse(drawn.bytes.toString()) as { success: boolean; error: string };
      expect(answer.success).toBe(false);
      expect(answer.error).toMatch(/^Files cannot be stored or read just now/);
      expect(answer.error).not.toMatch(/\bat .*\.ts:\d+/);
      // A direct upload meanwhile fails at the buyer's end (the PUT cannot reach the bucket), and
      // its address never serves a part of it.
      const late = await artwork(150);
      const lateAsk = await api<{ data: string }>(one.baseUrl, token, 'POST', '/api/users/me/get-upload-url', { serverSidePath: 'artwork/late.jpg', contentType: 'image/jpeg', contentLength: late.length });
      expect(lateAsk.status).toBe(200);
      await expect(fetch(lateAsk.body.data, { method: 'PUT', body: new Uint8Array(late), headers: { 'Content-Type': 'image/jpeg' } })).rejects.toThrow();
      // Orders keep arriving: the store's webhooks need the database only.
      const plan = planStorm({ orders: 12, seed: 7331, duplicateRate: 0.2, maxUpdates: 1 });
      const { outcomes } = await deliverAll(plan.deliveries, { url: () => webhookUrl(apps[Math.floor(Math.random() * 2)].baseUrl, site), site, concurrency: 4, giveUpAfterMs: 60_000 });
      expect(line.refused).toBeGreaterThan(0);

      line.mend();
      for (const app of apps) await waitFor('ready once the bucket answers', async () => (await fetch(`${app.baseUrl}/api/health/ready`)).status === 200, 90_000);
      await waitUntilProcessed(db);
      await expectStormStored({ db, baseUrl: one.baseUrl, token, siteId: site.siteId, plan, outcomes });
      const again = await bytesAt(`${two.baseUrl}${fileUrl}`);
      expect(again.status).toBe(200);
      expect(again.bytes.equals(page)).toBe(true);
      const now = await pdfOf(two);
      expect(now.status, now.bytes.toString().slice(0, 300)).toBe(200);
      expect(now.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await pdfOf(one)).bytes.equals(now.bytes)).toBe(true);
      // The upload tried again with a fresh link goes through.
      const retryUrl = await uploadTo(one, token, late, 'late-again.jpg');
      const read = await bytesAt(`${two.baseUrl}${retryUrl}`);
      expect(read.bytes.equals(late)).toBe(true);
      // Nothing half-made in the bucket: one print file for the job, a whole PDF.
      const bucket = bucketAt(prefix);
      const printFiles = await bucket.list(`${site.siteId}/print-files/`);
      expect(printFiles).toHaveLength(1);
      const pdf = (await bucket.read(printFiles[0].key))!;
      expect(pdf.equals(now.bytes)).toBe(true);
      expect(pdf.subarray(-8).toString()).toMatch(/%%EOF\s*$/);
    } catch (err) {
      fail(err);
    }
  }, 300_000);
});
