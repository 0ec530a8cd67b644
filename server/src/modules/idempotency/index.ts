// Owns idempotency keys: the first answer of a user action, replayed on a retry.
export { type IdempotencyRecord, idempotencyRepo, type IdempotencyRepo } from './repo';
