// Backups kept in a bucket: `npm run backup -- s3://bucket/key` and `npm run restore -- s3://bucket/key`.
// The archive is made in a temporary file as any backup is (complete and checksummed), then sent
// as one PUT or a multipart upload (visible only once whole, aborted on error); a restore fetches
// it into a temporary file and restores that, every checksum verified as for a local archive.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config';
import { s3Store } from '../uploads';
import { BackupError } from './errors';

export const isBucketAddress = (arg: string) => arg.startsWith('s3://');

function parse(address: string): { bucket: string; key: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/.exec(address);
  if (!m || m[2].split('/').some((p) => p === '' || p === '.' || p === '..')) throw new BackupError(`${address} is not a bucket address like s3://my-bucket/presswork/2026-11-28.tar.gz`);
  return { bucket: m[1], key: m[2] };
}

/** The bucket the address names, reached with the S3_* settings (endpoint, region, key, path style). */
function bucketOf(config: Config, address: string) {
  const { bucket, key } = parse(address);
  if (config.storage.kind !== 's3') throw new BackupError('the S3 settings could not be read');
  return { store: s3Store({ ...config.storage, bucket, prefix: '' }), key };
}

/** A temporary folder for the archive on its way, removed by `done`. */
export function temporaryArchive(): { file: string; done: () => Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-backup-'));
  return { file: path.join(dir, 'backup.tar.gz'), done: () => fsp.rm(dir, { recursive: true, force: true }) };
}

/** Refused when the key exists: a backup never overwrites one. */
export async function ensureFreeInBucket(config: Config, address: string): Promise<void> {
  const { store, key } = bucketOf(config, address);
  const existing = await store.open(key);
  if (existing) {
    existing.stream.destroy();
    throw new BackupError(`${address} already exists; choose a new name (a backup never overwrites one)`);
  }
}

export async function sendToBucket(config: Config, file: string, address: string): Promise<void> {
  const { store, key } = bucketOf(config, address);
  await ensureFreeInBucket(config, address);
  await store.put(key, fs.createReadStream(file), { contentType: 'application/gzip' });
}

export async function fetchFromBucket(config: Config, address: string, file: string): Promise<void> {
  const { store, key } = bucketOf(config, address);
  const found = await store.open(key);
  if (!found) throw new BackupError(`There is no backup at ${address}`);
  await pipeline(found.stream, fs.createWriteStream(file, { flags: 'wx' }));
}
