// One Presswork process per SQLite database (lib/sqliteOwner.ts): a second claim is refused naming
// the owner, in this process and across processes; a claim of a process killed with SIGKILL does not
// block the next; a backup taken by the owner leaves its claim in force (and out of the archive);
// a second real server on the same DATA_DIR exits 1 with the sentence and no stack trace.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config';
import { createDb, migrate } from '../src/db';
import { claimDatabase, DatabaseClaimError, instanceLockFilesOf } from '../src/lib/sqliteOwner';
import { writeBackup } from '../src/modules/backup';
import { startServerProcess } from './serverProcess';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-claim-test-'));
const children: Array<{ kill: (s: NodeJS.Signals) => unknown }> = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

let counter = 0;
const freshDir = () => path.join(root, `data-${++counter}`);
const sqliteAt = (dataDir: string): Config['database'] => ({ client: 'sqlite', filename: path.join(dataDir, 'presswork.sqlite') });
const refusal = (database: string, pid: number) =>
  new RegExp(`^another Presswork \\(pid ${pid} on host ${os.hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, started \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\) is using the database ${database.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\. SQLite allows one instance at a time: stop that one first, or use PostgreSQL \\(DATABASE_URL\\) for several\\.$`);

function claimError(database: Config['database']): DatabaseClaimError {
  try {
    claimDatabase(database).release();
  } catch (err) {
    if (err instanceof DatabaseClaimError) return err;
    throw err;
  }
  throw new Error('the database was claimed: the claim was not refused');
}

/** A node process (through tsx, from the project root) that claims `database` and says "claimed" on stderr, or exits with its error. */
async function claimingChild(database: string) {
  const script = `
    import { claimDatabase } from './server/src/lib/sqliteOwner.ts';
    try { claimDatabase({ client: 'sqlite', filename: ${JSON.stringify(database)} }); } catch (err) { process.stderr.write(err.message); process.exit(3); }
    process.stderr.write('claimed\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const outcome = await new Promise<'claimed' | 'refused'>((resolve) => {
    child.stderr.on('data', (d) => {
      err += d;
      if (err.includes('claimed')) resolve('claimed');
    });
    void exited.then(() => resolve('refused'));
  });
  return { child, outcome, stderr: () => err, exited };
}

describe('one process per SQLite database', () => {
  it('a second claim is refused naming the owner (pid, host, start) and the database; released, it can be claimed again', () => {
    const dataDir = freshDir();
    const database = sqliteAt(dataDir);
    const first = claimDatabase(database);
    const err = claimError(database);
    expect(err.message).toMatch(refusal(path.join(dataDir, 'presswork.sqlite'), process.pid));
    first.release();
    claimDatabase(database).release();
  });

  it('PostgreSQL and an in-memory database are not claimed (several instances share PostgreSQL)', () => {
    const pg: Config['database'] = { client: 'pg', url: 'postgres://nobody@127.0.0.1:1/none' };
    claimDatabase(pg);
    claimDatabase(pg).release();
    const memory: Config['database'] = { client: 'sqlite', filename: ':memory:' };
    claimDatabase(memory);
    claimDatabase(memory).release();
  });

  it('across processes: refused while another process holds it (even after a refused claim here), free once that process is killed with SIGKILL', async () => {
    const dataDir = freshDir();
    const database = path.join(dataDir, 'presswork.sqlite');
    const holder = await claimingChild(database);
    expect(holder.outcome, holder.stderr()).toBe('claimed');
    expect(claimError({ client: 'sqlite', filename: database }).message).toMatch(refusal(database, holder.child.pid!));

    holder.child.kill('SIGKILL');
    await holder.exited;
    // No clean-up ran: the kernel dropped the lock with the process.
    const mine = claimDatabase({ client: 'sqlite', filename: database });
    // A claim refused in this process closes its own handle on the file: this process's lock stays.
    expect(claimError({ client: 'sqlite', filename: database }).message).toMatch(refusal(database, process.pid));
    const other = await claimingChild(database);
    expect(other.outcome).toBe('refused');
    expect(other.stderr()).toMatch(refusal(database, process.pid));
    mine.release();
  }, 60_000);

  it('a backup taken while the server runs leaves its claim in force and the claim out of the archive', async () => {
    const dataDir = freshDir();
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: '0', DATABASE_URL: '' });
    const database = path.join(dataDir, 'presswork.sqlite');
    expect(config.database).toMatchObject({ client: 'sqlite', filename: database });
    const claim = claimDatabase(config.database);
    const db = createDb(config.database);
    await migrate(db);
    const archive = path.join(root, `backup-${counter}.tar.gz`);
    await writeBackup(config, archive);
    await db.destroy();
    const listed = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' }).stdout.split('\n');
    expect(listed).toContain('database/presswork.sqlite');
    expect(listed.filter((name) => name.includes('-instance'))).toEqual([]);
    expect(fs.existsSync(instanceLockFilesOf(database)[0])).toBe(true);
    // The backup did not open the claim's file (closing it would have dropped this process's lock).
    const other = await claimingChild(database);
    expect(other.outcome).toBe('refused');
    claim.release();
  }, 60_000);
});

/** The real server on `dataDir`, on a free port. */
const startServer = (dataDir: string) => startServerProcess(dataDir, { JWT_SECRET: 'claim-test-secret-that-is-long-enough-0123456789' }, (c) => children.push(c));

describe('a second server on the same SQLite database', () => {
  it('exits 1 with the sentence naming the running one, no stack trace; once that one is killed with SIGKILL, it starts', async () => {
    const dataDir = freshDir();
    const first = startServer(dataDir);
    expect(await first.outcome, first.output()).toEqual({ running: true });

    const second = startServer(dataDir);
    expect(await second.outcome, second.output()).toEqual({ running: false, code: 1 });
    expect(second.stderr().trim()).toMatch(new RegExp(`^Presswork cannot start: ${refusal(path.join(dataDir, 'presswork.sqlite'), first.child.pid!).source.slice(1)}`));
    expect(second.output()).not.toMatch(/\n\s+at /);

    first.child.kill('SIGKILL');
    await first.exited;
    const third = startServer(dataDir);
    expect(await third.outcome, third.output()).toEqual({ running: true });
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 120_000);
});
