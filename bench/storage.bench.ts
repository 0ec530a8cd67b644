// The file store: uploads (1 MiB files, like artwork) and print files (20 MiB, multipart on a
// bucket) written and read back, and a batch imposed from print files read from the store, on the
// S3 store against the local folder in the same run. The
// bucket is the tests' S3-compatible server on loopback, in this process: the figure is the cost
// of the S3 path (signing, HTTP, multipart) without a network's latency, not a real store's speed.
//   npx tsx bench/storage.bench.ts [files=40] [printFiles=4]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../server/src/config';
import { fileStoreOf } from '../server/src/services';
import type { FileStore } from '../server/src/modules/uploads/storage';
import { startTestS3 } from '../server/test/s3Server';
import { buildPrintPdf, closePdfWorkers } from '../server/src/modules/pdf/printPdf';
import { imposeBatch, type ImposeJob } from '../server/src/modules/batches/impose';
import { artworkPages } from './artwork';
import { emitSummary } from './support';

const fileCount = Number(process.argv[2] ?? 40);
const printCount = Number(process.argv[3] ?? 4);
const MiB = 1024 * 1024;
const upload = crypto.randomBytes(MiB);
const printFile = crypto.randomBytes(20 * MiB);

async function timed(work: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await work();
  return performance.now() - t;
}

/** MiB per second of writing then reading `count` files of `bytes`, four at a time (as several users would). */
async function throughput(store: FileStore, what: string, bytes: Buffer, count: number) {
  const keys = Array.from({ length: count }, (_, i) => `bench/${what}/${i}-${crypto.randomBytes(4).toString('hex')}`);
  const inFours = async (each: (key: string) => Promise<unknown>) => {
    for (let i = 0; i < keys.length; i += 4) await Promise.all(keys.slice(i, i + 4).map(each));
  };
  const put = await timed(() => inFours((k) => store.put(k, Readable.from(bytes))));
  const read = await timed(() => inFours((k) => store.read(k)));
  await inFours((k) => store.remove(k));
  const rate = (ms: number) => (count * bytes.length) / MiB / (ms / 1000);
  return { put: rate(put), read: rate(read) };
}

/**
 * A batch of `cards` imposed 4-up, each card's print file read from the store (as an instance
 * imposing a batch whose print files another drew): cards per second.
 */
async function imposition(store: FileStore, what: string, printFiles: Buffer[], cards: number, outDir: string) {
  const keys = printFiles.map((_, i) => `1/print-files/bench-${what}-${i}-${crypto.randomBytes(4).toString('hex')}/print-file.pdf`);
  await Promise.all(keys.map((k, i) => store.put(k, Readable.from(printFiles[i]))));
  const jobs: ImposeJob[] = Array.from({ length: cards }, (_, i) => ({ jobId: i + 1, orderName: `#${1000 + i}`, productName: 'Birthday card', quantity: 1, itemNumber: 1, itemCount: 1 }));
  const out = path.join(outDir, `batch-${what}.pdf`);
  const ms = await timed(() =>
    imposeBatch({ number: 1, createdAt: '2026-11-25T09:00:00.000Z', createdByName: 'Bench', jobs }, { trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 }, async (job) => (await store.read(keys[(job.jobId - 1) % keys.length]))!, out),
  );
  fs.rmSync(out, { force: true });
  await Promise.all(keys.map((k) => store.remove(k)));
  return cards / (ms / 1000);
}

async function main() {
  const s3 = await startTestS3('presswork-bench');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-bench-storage-'));
  const base = { NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };
  const local = fileStoreOf(loadConfig(base));
  const bucket = fileStoreOf(loadConfig({ ...base, ...s3.env('bench/') }));
  try {
    for (const [what, bytes, count] of [
      ['uploads (1 MiB)', upload, fileCount],
      ['print files (20 MiB)', printFile, printCount],
    ] as const) {
      const onDisk = await throughput(local, 'local', bytes, count);
      const onS3 = await throughput(bucket, 's3', bytes, count);
      for (const op of ['put', 'read'] as const) {
        const ratio = onS3[op] / onDisk[op];
        console.log(`${what} ${op}: s3 ${onS3[op].toFixed(0)} MiB/s, local ${onDisk[op].toFixed(0)} MiB/s (${ratio.toFixed(2)}×)`);
        emitSummary({ figure: `store ${op}, ${what}: S3 (loopback)`, value: `${onS3[op].toFixed(0)} MiB/s`, baseline: `local folder ${onDisk[op].toFixed(0)} MiB/s`, ratio: `${ratio.toFixed(2)}×`, aim: 'reported', met: null });
      }
    }
    // Imposition: real print files (4 pages of 300 ppi artwork), read from each store.
    const { jpeg } = await artworkPages(4);
    const cardFiles = await Promise.all([0, 1, 2, 3].map(async (i) => Buffer.from(await buildPrintPdf(jpeg, { file: { owner: `job ${i + 1}`, title: `Card ${i + 1}`, createdAt: '2026-11-25T09:00:00.000Z' }, cache: false }))));
    await closePdfWorkers();
    const cards = Math.max(8, printCount * 4);
    const onDisk = await imposition(local, 'local', cardFiles, cards, dataDir);
    const onS3 = await imposition(bucket, 's3', cardFiles, cards, dataDir);
    const ratio = onS3 / onDisk;
    console.log(`imposition (${cards} cards, print files read from the store): s3 ${onS3.toFixed(1)} cards/s, local ${onDisk.toFixed(1)} cards/s (${ratio.toFixed(2)}×)`);
    emitSummary({ figure: `imposition, ${cards} cards' print files read from the store: S3 (loopback)`, value: `${onS3.toFixed(1)} cards/s`, baseline: `local folder ${onDisk.toFixed(1)} cards/s`, ratio: `${ratio.toFixed(2)}×`, aim: 'reported', met: null });
  } finally {
    await s3.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().then(() => process.exit(0));
