// The file store in an S3-compatible bucket (AWS S3, R2, B2, Garage, SeaweedFS, Ceph…), through the
// official AWS SDK v3: the one S3 client kept in step with S3 itself (signing, retries, multipart).
// Instances that share the bucket share every file; none keeps one on its own disk.
import { Transform, type Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../../config';
import { StoreUnavailable, type FileStore, type ListedFile, type StoredFile } from './storage';

/** The bucket the settings name (config.ts), and how hard to try one request. */
export type S3StoreOptions = Omit<Extract<StorageConfig, { kind: 's3' }>, 'kind'> & {
  /** Attempts of one request (the SDK's standard strategy: exponential backoff with jitter on 5xx, throttling and dropped connections). */
  maxAttempts?: number;
};

/** Parts of a multipart upload; a file smaller than one part is a single PUT. */
const PART_SIZE = 8 * 1024 * 1024;

export function s3Client(o: S3StoreOptions): S3Client {
  return new S3Client({
    region: o.region ?? 'us-east-1',
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    forcePathStyle: o.forcePathStyle,
    ...(o.credentials ? { credentials: o.credentials } : {}),
    // Recent SDKs add CRC checksums to every upload; several S3-compatible servers refuse them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    retryMode: 'standard',
    maxAttempts: o.maxAttempts ?? 4,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

const statusOf = (err: unknown) => (err instanceof S3ServiceException ? err.$metadata?.httpStatusCode : undefined);
const isMissing = (err: unknown) => err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || statusOf(err) === 404) && err.name !== 'NoSuchBucket';

/** Why the bucket cannot be used, as a sentence with no host, key or secret in it. */
export function storageProblem(err: unknown): string {
  const name = (err as { name?: unknown } | null)?.name;
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof S3ServiceException) {
    if (err.name === 'NoSuchBucket') return 'the bucket does not exist (NoSuchBucket)';
    if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidToken', 'ExpiredToken'].includes(err.name)) return `the bucket refused the access key (${err.name})`;
    if (statusOf(err) === 403) return `the access key may not write to the bucket (${err.name === 'Unknown' ? 'AccessDenied' : err.name})`;
    return `the bucket answered an error (${/^[A-Za-z0-9]{2,60}$/.test(err.name) ? err.name : 'unknown'}, HTTP ${statusOf(err) ?? '?'})`;
  }
  if (name === 'CredentialsProviderError') return 'no access key is set (S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY, or the standard AWS variables)';
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return `the bucket's endpoint cannot be reached (${code})`;
  if (name === 'TimeoutError' || name === 'RequestTimeout') return "the bucket's endpoint did not answer in time";
  return 'the bucket cannot be reached';
}

/** Any failure but a missing object: the store is unavailable, said without its details (they go to the log via `cause`). */
const unavailable = (err: unknown) => (err instanceof StoreUnavailable ? err : new StoreUnavailable(storageProblem(err), { cause: err }));

export function s3Store(o: S3StoreOptions): FileStore & { client: S3Client; objectKey(key: string): string } {
  const client = s3Client(o);
  const Bucket = o.bucket;
  const objectKey = (key: string) => {
    if (!key || key.startsWith('/') || key.split('/').some((p) => p === '..' || p === '.' || p === '')) throw new Error('key escapes the store');
    return `${o.prefix}${key}`;
  };

  async function open(key: string): Promise<StoredFile | null> {
    try {
      const got = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
      const stream = got.Body as Readable;
      return { stream, size: Number(got.ContentLength ?? 0), contentType: got.ContentType, metadata: got.Metadata ?? {} };
    } catch (err) {
      if (isMissing(err)) return null;
      throw unavailable(err);
    }
  }

  return {
    kind: 's3',
    client,
    objectKey,
    async put(key, body, options = {}) {
      const Key = objectKey(key);
      let size = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      // An error of the source reaches the upload through the counter; lib-storage then aborts a
      // multipart upload (nothing is visible), and a single PUT was never sent.
      body.on('error', (err) => counted.destroy(err));
      body.pipe(counted);
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: counted, ...(options.contentType ? { ContentType: options.contentType } : {}) },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (err) {
        const sourceError = body.errored ?? counted.errored;
        // The source is not read any further (an open file is closed).
        body.unpipe(counted);
        body.destroy();
        if (sourceError) throw sourceError;
        throw unavailable(err);
      }
      return size;
    },
    open,
    async read(key) {
      const file = await open(key);
      if (!file) return null;
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of file.stream) chunks.push(chunk as Buffer);
      } catch (err) {
        throw unavailable(err);
      }
      return Buffer.concat(chunks);
    },
    async remove(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (err) {
        if (!isMissing(err)) throw unavailable(err);
      }
    },
    async list(folder) {
      if (folder && !folder.endsWith('/')) throw new Error('a listed folder ends with /');
      // '': every file of the store.
      const Prefix = folder ? objectKey(folder.slice(0, -1)) + '/' : (o.prefix ?? '');
      const prefixLength = o.prefix.length;
      const out: ListedFile[] = [];
      let ContinuationToken: string | undefined;
      try {
        do {
          const command = new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken });
          // Path-style, the bucket's own address is /bucket/; some S3-compatible servers sign it as
          // /bucket (S3 takes both), so it is sent that way.
          command.middlewareStack.add(
            (next) => (args) => {
              const request = args.request as { path?: string };
              if (request.path === `/${Bucket}/`) request.path = `/${Bucket}`;
              return next(args);
            },
            { step: 'build', name: 'bucketPathWithoutSlash' },
          );
          const page = await client.send(command);
          for (const obj of page.Contents ?? []) if (obj.Key) out.push({ key: obj.Key.slice(prefixLength), size: Number(obj.Size ?? 0), modifiedAt: obj.LastModified ?? new Date(0) });
          ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (ContinuationToken);
      } catch (err) {
        throw unavailable(err);
      }
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async presignPut(key, grant) {
      const command = new PutObjectCommand({ Bucket, Key: objectKey(key), ContentType: grant.contentType, ContentLength: grant.contentLength, Metadata: grant.metadata });
      // Type and length are signed headers: a PUT with another of either does not match the signature.
      return getSignedUrl(client, command, { expiresIn: grant.expiresSeconds, signableHeaders: new Set(['content-type', 'content-length']) });
    },
    describe: () => `bucket ${Bucket}${o.prefix ? ` (prefix ${o.prefix})` : ''}${o.endpoint ? ` at ${o.endpoint}` : ''}`,
  };
}
