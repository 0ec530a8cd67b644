// The file-store contract, run against both stores: the folder under DATA_DIR and an S3-compatible
// bucket (a server the tests start). Whatever the store, a file is whole or absent.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { fileStoreOf } from '../src/services';
import { storeProblem, type FileStore } from '../src/modules/uploads/storage';
import { s3Store } from '../src/modules/uploads/s3Store';
import { startTestS3, S3_TEST_KEY, type TestS3 } from './s3Server';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

const storeOf = (kind: 'local' | 's3'): FileStore => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-store-'));
  // Each store its own prefix in the one bucket: the tests do not see each other's files.
  const env = kind === 's3' ? s3.env(`t-${crypto.randomBytes(4).toString('hex')}`) : {};
  return fileStoreOf(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), ...env }));
};

/** A stream that gives `good` bytes, then fails. */
function failingAfter(good: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(good);
      } else this.destroy(new Error('the source broke off'));
    },
  });
}

describe.each(['local', 's3'] as const)('the %s store', (kind) => {
  let store: FileStore;
  beforeAll(() => {
    store = storeOf(kind);
  });

  it('put answers the size; open and read give the same bytes back', async () => {
    const bytes = crypto.randomBytes(70_000);
    expect(await store.put('designs/a/one.png', Readable.from(bytes))).toBe(bytes.length);
    expect(await store.read('designs/a/one.png')).toEqual(bytes);
    const opened = await store.open('designs/a/one.png');
    expect(opened?.size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const c of opened!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks)).toEqual(bytes);
  });

  it('a missing key: open and read answer null, remove is no error', async () => {
    expect(await store.open('nothing/here.pdf')).toBeNull();
    expect(await store.read('nothing/here.pdf')).toBeNull();
    await expect(store.remove('nothing/here.pdf')).resolves.toBeUndefined();
  });

  it('remove: the file is gone; a second put replaces the first whole', async () => {
    await store.put('k/r.txt', Readable.from(Buffer.from('first version')));
    await store.put('k/r.txt', Readable.from(Buffer.from('second')));
    expect((await store.read('k/r.txt'))?.toString()).toBe('second');
    await store.remove('k/r.txt');
    expect(await store.read('k/r.txt')).toBeNull();
  });

  // One key for all writers on the folder. A bucket's PUT is atomic (last writer wins), but the
  // tests' S3 server writes an object in place, so there each writer has a key of its own.
  it('concurrent writers: every file written is one of theirs, whole', async () => {
    const versions = Array.from({ length: 6 }, (_, i) => Buffer.alloc(50_000 + i * 1000, 65 + i));
    const keyOf = (i: number) => (kind === 'local' ? 'race/file.bin' : `race/file-${i}.bin`);
    const sizes = await Promise.all(versions.map((v, i) => store.put(keyOf(i), Readable.from(v))));
    expect(sizes).toEqual(versions.map((v) => v.length));
    for (const i of versions.keys()) {
      const kept = await store.read(keyOf(i));
      expect(versions.some((v) => v.equals(kept!))).toBe(true);
    }
  });

  it('a source that fails mid-stream: put fails and nothing is visible, not even the earlier file under that key', async () => {
    await expect(store.put('broken/file.bin', failingAfter(crypto.randomBytes(100_000)))).rejects.toThrow(/broke off/);
    expect(await store.open('broken/file.bin')).toBeNull();
    await store.put('kept/file.bin', Readable.from(Buffer.from('the good one')));
    await expect(store.put('kept/file.bin', failingAfter(crypto.randomBytes(10_000)))).rejects.toThrow(/broke off/);
    expect((await store.read('kept/file.bin'))?.toString()).toBe('the good one');
  });

  it('a large file (several multipart parts on a bucket) fails past its first part: nothing is visible', async () => {
    const big = crypto.randomBytes(9 * 1024 * 1024);
    await expect(store.put('big/broken.bin', failingAfter(big))).rejects.toThrow(/broke off/);
    expect(await store.open('big/broken.bin')).toBeNull();
    expect(await store.put('big/whole.bin', Readable.from([big, big.subarray(0, 1024)]))).toBe(big.length + 1024);
    expect((await store.read('big/whole.bin'))?.equals(Buffer.concat([big, big.subarray(0, 1024)]))).toBe(true);
  }, 60_000);

  it('a key that climbs out of the store is refused', async () => {
    await expect(store.put('../outside.txt', Readable.from(Buffer.from('x')))).rejects.toThrow(/escapes/);
  });

  it('takes a probe write: no problem to report', async () => {
    expect(await storeProblem(store)).toBeNull();
  });
});

describe('a bucket that cannot be used says why', () => {
  const options = () => ({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3_TEST_KEY, prefix: '', maxAttempts: 1 });

  it('unreachable endpoint', async () => {
    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer();
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    expect(await storeProblem(s3Store({ ...options(), endpoint: `http://127.0.0.1:${closed}` }))).toBe("the bucket's endpoint cannot be reached (ECONNREFUSED)");
  });

  it('a wrong secret', async () => {
    expect(await storeProblem(s3Store({ ...options(), credentials: { ...S3_TEST_KEY, secretAccessKey: 'wrong' } }))).toBe('the bucket refused the access key (SignatureDoesNotMatch)');
  });

  it('an unknown access key', async () => {
    expect(await storeProblem(s3Store({ ...options(), credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'wrong' } }))).toBe('the bucket refused the access key (InvalidAccessKeyId)');
  });

  it('a missing bucket', async () => {
    expect(await storeProblem(s3Store({ ...options(), bucket: 'no-such-bucket' }))).toBe('the bucket does not exist (NoSuchBucket)');
  });

  it('retries with backoff: a bucket that is down for a moment loses no write', async () => {
    const store = s3Store({ ...options(), maxAttempts: 10, prefix: 'retry/' });
    await s3.stop();
    setTimeout(() => void s3.start(), 100);
    expect(await store.put('after-outage.txt', Readable.from(Buffer.from('kept')))).toBe(4);
    expect((await store.read('after-outage.txt'))?.toString()).toBe('kept');
  });
});

describe('the storage settings', () => {
  const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: ':memory:', JWT_SECRET: 'x'.repeat(40), ...env });

  it('local by default; s3 reads the bucket, region (else AWS_REGION), endpoint, path style, key and a prefix ending in /', () => {
    expect(load({}).storage).toEqual({ kind: 'local' });
    expect(load({ STORAGE: 's3', S3_BUCKET: 'pw-files', AWS_REGION: 'eu-west-3', S3_ENDPOINT: 'https://s3.example.net/', S3_FORCE_PATH_STYLE: '1', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'SK', S3_PREFIX: 'presswork' }).storage).toEqual({
      kind: 's3',
      bucket: 'pw-files',
      region: 'eu-west-3',
      endpoint: 'https://s3.example.net',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
      prefix: 'presswork/',
    });
    expect(load({ STORAGE: 's3', S3_BUCKET: 'pw-files', S3_REGION: 'auto' }).storage).toMatchObject({ region: 'auto', credentials: undefined, forcePathStyle: false, prefix: '' });
  });

  it('refusals name the setting', () => {
    expect(() => load({ STORAGE: 's3' })).toThrow(/S3_BUCKET is required when STORAGE=s3/);
    expect(() => load({ STORAGE: 's3', S3_BUCKET: 'pw-files', S3_ACCESS_KEY_ID: 'AK' })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/);
    expect(() => load({ STORAGE: 'nfs' })).toThrow(/STORAGE/);
    expect(() => load({ STORAGE: 's3', S3_BUCKET: 'Not A Bucket' })).toThrow(/S3_BUCKET: must be a bucket name/);
    expect(() => load({ STORAGE: 's3', S3_BUCKET: 'pw-files', S3_PREFIX: '../up' })).toThrow(/S3_PREFIX/);
    expect(() => load({ STORAGE: 's3', S3_BUCKET: 'pw-files', S3_PREFIX: '/abs' })).toThrow(/S3_PREFIX/);
  });
});
