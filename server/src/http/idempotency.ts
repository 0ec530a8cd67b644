// Idempotency-Key: the same user action sent twice (a double click, a retry after a lost answer)
// runs once; every later request with that key gets the first answer (same status and body).
// Keys are per user and kept for a day. The database is the lock: the first request inserts the
// (user, key) row, so two instances never both run the action. Only 2xx and 4xx answers are kept;
// after a 5xx the key is freed, so the client may retry with it.
//
//   r.post('/', allow.ownSite, idempotent, handler)   — on a route that creates something
import crypto from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Deps } from '../deps';
import { idempotencyRepo, type IdempotencyRecord, type IdempotencyRepo } from '../modules/idempotency';
import { HttpError } from './errors';
import { fieldError } from './fieldErrors';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How long a key answers its first result. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still marked running after this long died with its process: its key may be taken again. */
export const ABANDONED_AFTER_MS = 10 * 60 * 1000;
export const STILL_RUNNING_MESSAGE = 'This action is still being processed; wait for its answer instead of sending it again.';
/** Keys: 1–255 visible ASCII characters (a UUID in the admin). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Expired keys are removed at most this often per process (lazily, by a request). */
const CLEAN_EVERY_MS = 10 * 60 * 1000;

export interface IdempotencyOptions {
  /** How long a second request waits for the first one's answer before it is refused with 409. */
  waitMs?: number;
  pollMs?: number;
}

export interface IdempotencyKeys {
  repo: IdempotencyRepo;
  deps: Pick<Deps, 'clock' | 'log'>;
  options: Required<IdempotencyOptions>;
  cleanedAt: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    idempotencyKeys?: IdempotencyKeys;
  }
}

/** Makes the key store known to the routes after it (mounted once on the API router). */
export function provideIdempotencyKeys(deps: Pick<Deps, 'db' | 'clock' | 'log'>, options: IdempotencyOptions = {}): RequestHandler {
  const keys: IdempotencyKeys = { repo: idempotencyRepo(deps.db), deps, options: { waitMs: 2_000, pollMs: 50, ...options }, cleanedAt: 0 };
  return (req, _res, next) => {
    req.idempotencyKeys = keys;
    next();
  };
}

/** JSON with object keys sorted, so the same body in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const bodyHashOf = (body: unknown) => crypto.createHash('sha256').update(canonicalJson(body)).digest('hex');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function replay(res: Response, record: IdempotencyRecord): void {
  res.set('Idempotent-Replayed', 'true');
  res.status(record.status ?? 200).type('application/json').send(record.responseBody ?? 'null');
}

async function cleanExpired(keys: IdempotencyKeys): Promise<void> {
  const now = keys.deps.clock.now().getTime();
  if (now - keys.cleanedAt < CLEAN_EVERY_MS) return;
  keys.cleanedAt = now;
  await keys.repo.removeCreatedBefore(new Date(now - IDEMPOTENCY_TTL_MS).toISOString());
}

/** The route's gate for Idempotency-Key (after its `allow.*`): without the header the route runs as before. */
export const idempotent: RequestHandler = async (req, res, next) => {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined || !req.actor) return next();
  const keys = req.idempotencyKeys;
  if (!keys) return next(new Error('idempotent route without provideIdempotencyKeys'));
  if (!KEY_PATTERN.test(key)) return next(fieldError(IDEMPOTENCY_HEADER, `The ${IDEMPOTENCY_HEADER} header must be 1 to 255 visible characters (e.g. a UUID).`));
  const { repo, deps, options } = keys;
  const userId = req.actor.id;
  const request = { method: req.method, path: req.originalUrl, bodyHash: bodyHashOf(req.body) };
  try {
    await cleanExpired(keys);
    const waitUntil = Date.now() + options.waitMs;
    for (;;) {
      const now = deps.clock.now();
      const id = await repo.claim(userId, key, request, now.toISOString());
      if (id !== undefined) return run(id, repo, deps, res, next);
      const seen = await repo.find(userId, key);
      if (!seen) continue; // freed between our insert and our read: try to claim it again
      const age = now.getTime() - Date.parse(seen.createdAt);
      if (age >= IDEMPOTENCY_TTL_MS || (seen.status === null && age >= ABANDONED_AFTER_MS)) {
        await repo.releaseIfUnchanged(seen);
        continue;
      }
      if (seen.method !== request.method || seen.path !== request.path || seen.bodyHash !== request.bodyHash) {
        throw new HttpError(422, `This ${IDEMPOTENCY_HEADER} was already used for another request (${seen.method} ${seen.path.split('?')[0]} with other data); send a new key for a new action.`);
      }
      if (seen.status !== null) return replay(res, seen);
      if (Date.now() >= waitUntil) throw new HttpError(409, STILL_RUNNING_MESSAGE, undefined, { 'Retry-After': '1' });
      await sleep(options.pollMs);
    }
  } catch (err) {
    next(err);
  }
};

/** Runs the route, keeping its JSON answer under the key before it is sent. */
function run(id: number, repo: IdempotencyRepo, deps: Pick<Deps, 'log'>, res: Response, next: (err?: unknown) => void): void {
  const send = res.json.bind(res);
  let answered = false;
  res.json = (body: unknown) => {
    answered = true;
    res.json = send;
    const status = res.statusCode;
    const done = status >= 500 ? repo.release(id) : repo.complete(id, status, JSON.stringify(body ?? null));
    done
      .catch((err: unknown) => deps.log.error({ err }, 'idempotency key not saved'))
      .finally(() => send(body));
    return res;
  };
  // An answer that is not JSON (a file, an empty reply) is not kept: the key is freed.
  res.on('finish', () => {
    if (!answered) repo.release(id).catch((err: unknown) => deps.log.error({ err }, 'idempotency key not freed'));
  });
  next();
}
