// SQL of the idempotency keys: the first answer of a user action, by (user, key).
import type { Db } from '../../db';
import { isUniqueViolation } from '../../db';

export interface IdempotencyRecord {
  id: number;
  method: string;
  path: string;
  bodyHash: string;
  /** Null while the first request still runs. */
  status: number | null;
  responseBody: string | null;
  createdAt: string;
}

interface Row {
  id: number;
  method: string;
  path: string;
  body_hash: string;
  status: number | null;
  response_body: string | null;
  created_at: string;
}

const toRecord = (r: Row): IdempotencyRecord => ({
  id: Number(r.id),
  method: r.method,
  path: r.path,
  bodyHash: r.body_hash,
  status: r.status === null || r.status === undefined ? null : Number(r.status),
  responseBody: r.response_body,
  createdAt: r.created_at,
});

export function idempotencyRepo(db: Db) {
  return {
    /**
     * Claims the key for a request about to run: the id of the new row, or undefined when the user
     * already used this key (the unique index decides, also between two instances).
     */
    async claim(userId: number, key: string, request: { method: string; path: string; bodyHash: string }, createdAt: string): Promise<number | undefined> {
      try {
        const [row] = await db('idempotency_keys')
          .insert({ user_id: userId, key, method: request.method, path: request.path, body_hash: request.bodyHash, status: null, response_body: null, created_at: createdAt })
          .returning('id');
        return Number(typeof row === 'object' ? row.id : row);
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },

    async find(userId: number, key: string): Promise<IdempotencyRecord | undefined> {
      const row = (await db('idempotency_keys').where({ user_id: userId, key }).first()) as Row | undefined;
      return row ? toRecord(row) : undefined;
    },

    async complete(id: number, status: number, responseBody: string): Promise<void> {
      await db('idempotency_keys').where({ id }).update({ status, response_body: responseBody });
    },

    /** Frees the key (the request failed on our side, or answered no JSON): the action may run again. */
    async release(id: number): Promise<void> {
      await db('idempotency_keys').where({ id }).del();
    },

    /** Removes this row only if it is still the one seen (another request may have replaced it). */
    async releaseIfUnchanged(record: IdempotencyRecord): Promise<void> {
      await db('idempotency_keys').where({ id: record.id, created_at: record.createdAt }).del();
    },

    async removeCreatedBefore(cutoff: string): Promise<number> {
      return db('idempotency_keys').where('created_at', '<', cutoff).del();
    },
  };
}

export type IdempotencyRepo = ReturnType<typeof idempotencyRepo>;
