// GET /api/health (liveness) and GET /api/health/ready (readiness): what monitors and load
// balancers read. A 503 from /ready carries the same `data` as a 200, in the error envelope.

/** GET /api/health: the process answers (no database call). */
export interface Liveness {
  status: 'ok';
}

/**
 * The readiness checks, by name. `storage`: the file store takes a write (the files folder, or the
 * bucket with STORAGE=s3). `shutdown` is listed only while the instance shuts down (then alone).
 */
export type HealthCheckName = 'database' | 'migrations' | 'storage' | 'disk' | 'shutdown';

export interface HealthCheck {
  name: HealthCheckName;
  ok: boolean;
  /** Why it failed, as a sentence (no paths, no secrets). */
  reason?: string;
}

/**
 * GET /api/health/ready: 200 with status "ready", or 503 with status "not-ready"; every check listed.
 * Once a shutdown has begun: 503 with the one check `shutdown` (the others are not run any more).
 */
export interface Readiness {
  status: 'ready' | 'not-ready';
  checks: HealthCheck[];
}
