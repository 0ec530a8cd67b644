// The S3 client's settings for S3-compatible stores: checksums only where S3 requires them, and
// retries with backoff on 5xx and throttling answers (a store that answers 503 SlowDown twice
// then takes the file: the write succeeds on the third attempt).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { s3Client, s3Store } from '../src/modules/uploads/s3Store';

const options = { bucket: 'retries', region: 'us-east-1', endpoint: undefined as string | undefined, forcePathStyle: true, prefix: '', credentials: { accessKeyId: 'k', secretAccessKey: 's' } };

describe('the S3 client', () => {
  it('checksums "when required" (request and response), standard retries, 4 attempts', async () => {
    const config = s3Client(options).config as unknown as Record<string, unknown>;
    const valueOf = async (k: string) => (typeof config[k] === 'function' ? (config[k] as () => Promise<unknown>)() : config[k]);
    expect(await valueOf('requestChecksumCalculation')).toBe('WHEN_REQUIRED');
    expect(await valueOf('responseChecksumValidation')).toBe('WHEN_REQUIRED');
    expect(await valueOf('maxAttempts')).toBe(4);
    expect(await valueOf('retryMode')).toBe('standard');
  });

  const seen: Array<{ method: string; status: number; checksumHeaders: string[] }> = [];
  let failuresLeft = 0;
  let failWith = 503;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const checksumHeaders = Object.keys(req.headers).filter((h) => h.startsWith('x-amz-checksum') || h === 'x-amz-sdk-checksum-algorithm');
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        seen.push({ method: req.method!, status: failWith, checksumHeaders });
        res.writeHead(failWith, { 'Content-Type': 'application/xml' }).end(`<Error><Code>${failWith === 503 ? 'SlowDown' : 'InternalError'}</Code><Message>try again</Message></Error>`);
        return;
      }
      seen.push({ method: req.method!, status: 200, checksumHeaders });
      res.writeHead(200, { ETag: '"abc"' }).end();
    });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each([
    [503, 'throttling (503 SlowDown)'],
    [500, 'a server error (500)'],
  ])('a write meeting %s twice is retried with backoff and lands on the third attempt; no checksum header sent', async (status) => {
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    seen.length = 0;
    failuresLeft = 2;
    failWith = status;
    const store = s3Store({ ...options, endpoint });
    expect(await store.put('1/logos/a.png', Readable.from(Buffer.from('a logo')))).toBe(6);
    expect(seen.map((s) => [s.method, s.status])).toEqual([
      ['PUT', status],
      ['PUT', status],
      ['PUT', 200],
    ]);
    expect(seen.flatMap((s) => s.checksumHeaders)).toEqual([]);
  });
});
