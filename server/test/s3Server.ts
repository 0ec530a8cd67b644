// An S3-compatible server for the tests, started by them on a free loopback port: the
// @20minutes/s3rver package (a kept fork of s3rver that checks SigV4 signatures and presigned
// expiry, which the original does not). Files live in a temporary folder removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: the package ships no types.
import S3rver from '@20minutes/s3rver';

export const S3_TEST_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The settings of an instance using this bucket (with a prefix of its own when given). */
  env(prefix?: string): Record<string, string>;
  /** Stops answering (the port then refuses connections) until `start` again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'presswork-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-s3-'));
  let port = 0;
  let server: { run(): Promise<{ port: number }>; close(): Promise<void> } | undefined;
  const start = async () => {
    server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
    port = (await server!.run()).port;
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await server?.close();
    server = undefined;
  };
  return {
    endpoint,
    bucket,
    env: (prefix = '') => ({
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: '1',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3_TEST_KEY.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_KEY.secretAccessKey,
      S3_PREFIX: prefix,
    }),
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
