// One Presswork process per SQLite database. The server assumes it is its file's only writer (one
// connection; the claims that keep several instances off the same work are PostgreSQL's), so a second
// process on the same file would send the same outbox rows and batches again: it is refused at start.
//
// The claim is a write lock SQLite takes on a side file, `<database>-instance`, held for the life of
// the process: the kernel drops it when the process ends in any way (kill -9, a crash, a power cut),
// so a dead instance never blocks the next start, and no pid can be mistaken for a reused one. The
// file itself also names its owner (pid, host, start time) for the refusal's sentence: the lock is a
// reserved one (a transaction left open), which lets others read while it stops them writing.
//
// It is a POSIX lock (fcntl): closing any descriptor this process has open on the file drops it. Only
// this module opens the file; the backup leaves it out (instanceLockFilesOf).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config';

/** Why this process may not use the database: a sentence for "Presswork cannot start: …". */
export class DatabaseClaimError extends Error {}

export interface DatabaseClaim {
  /** Gives the database up (the process's end does the same). */
  release(): void;
}

/** The side file holding the claim on the SQLite database `database`, and its journal while written. */
export function instanceLockFilesOf(database: string): string[] {
  const file = `${path.resolve(database)}-instance`;
  return [file, `${file}-journal`];
}

interface Owner {
  pid: number;
  host: string;
  started_at: string;
}

/**
 * Claims the database for this process, or throws DatabaseClaimError naming the process that has it.
 * PostgreSQL and an in-memory SQLite database need no claim (several instances share PostgreSQL).
 */
export function claimDatabase(database: Config['database']): DatabaseClaim {
  if (database.client !== 'sqlite' || database.filename === ':memory:') return { release() {} };
  const shown = path.resolve(database.filename);
  const [file] = instanceLockFilesOf(database.filename);
  let conn: Database.Database;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // No waiting: a held claim is refused at once.
    conn = new Database(file, { timeout: 0 });
  } catch (err) {
    throw new DatabaseClaimError(`the database ${shown} cannot be claimed for this process: ${file} cannot be opened${codeOf(err)}`, { cause: err });
  }
  // The owner is written and committed first (so others can read it), then the lock taken for good.
  // Another start in between takes the lock first: this one is then refused by the second BEGIN.
  let ownerWritten = false;
  try {
    conn.exec('begin immediate');
    conn.exec('create table if not exists instance (id integer primary key check (id = 1), pid integer not null, host text not null, started_at text not null)');
    conn.prepare('insert or replace into instance (id, pid, host, started_at) values (1, ?, ?, ?)').run(process.pid, os.hostname(), new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
    conn.exec('commit');
    ownerWritten = true;
    conn.exec('begin immediate');
  } catch (err) {
    const busy = (err as { code?: string }).code?.startsWith('SQLITE_BUSY');
    // Refused after writing itself down, the row read may still be this process's own.
    const owner = busy && !ownerWritten ? ownerOf(conn) : undefined;
    conn.close();
    if (!busy) throw new DatabaseClaimError(`the database ${shown} cannot be claimed for this process: ${file} cannot be written${codeOf(err)}`, { cause: err });
    const who = owner ? `another Presswork (pid ${owner.pid} on host ${owner.host}, started ${owner.started_at})` : 'another Presswork, starting at this moment,';
    throw new DatabaseClaimError(`${who} is using the database ${shown}. SQLite allows one instance at a time: stop that one first, or use PostgreSQL (DATABASE_URL) for several.`);
  }
  return {
    release() {
      // Closing ends the open transaction, and with it the lock.
      if (conn.open) conn.close();
    },
  };
}

/** The claim's owner as it wrote itself down; undefined when it cannot be read (it is being written). */
function ownerOf(conn: Database.Database): Owner | undefined {
  try {
    return conn.prepare('select pid, host, started_at from instance where id = 1').get() as Owner | undefined;
  } catch {
    return undefined;
  }
}

const codeOf = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? ` (${code})` : '';
};
