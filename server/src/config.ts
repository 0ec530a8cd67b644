// Every setting Presswork reads, parsed once from the environment and validated.
// Nothing else in the code base reads process.env.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.string().default('loopback'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DB_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).optional(),
  SQLITE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  SQLITE_MAX_PAGE_COUNT: z.coerce.number().int().positive().optional(),
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL', 'full', 'normal']).transform((s) => s.toUpperCase() as 'FULL' | 'NORMAL').default('FULL'),
  JWT_SECRET: z.string().min(1).optional(),
  JWT_EXPIRES_IN: z.string().regex(/^\d+[smhd]$/, 'like 30m, 12h or 7d').default('12h'),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  SEED_DEMO: bool.optional(),
  SIMULATORS: bool.optional(),
  // Outside production: the loopback SMTP server catching the demo's e-mails (0 = any free port).
  SMTP_CATCHER_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  DEFAULT_SITE: z.string().optional(),
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/i).default('1mb'),
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  EDITOR_URL: z.string().default('/editor'),
  EDITOR_ALLOWED_PARENT_ORIGINS: z.string().default(''),
  SAMPLE_EDITOR_URL: z.string().default('/sample-editor-embed'),
  ARTWORK_ALLOWED_HOSTS: z.string().default(''),
  PDF_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  PRINT_OUTPUT_PROFILE: z.coerce.number().int().positive().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // SIGTERM/SIGINT: the process has exited within this many milliseconds, whatever was under way.
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  // CRM ↔ email-platform sync.
  SYNC_SERVICE_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*:site(\/[A-Za-z0-9_-]*)*$/, 'must be a path holding :site, like /sync-service/:site')
    .default('/sync-service/:site'),
  SYNC_SCHEDULER: bool.optional(),
  SYNC_TIMEZONE: z
    .string()
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en-GB', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'is not a known time zone')
    .default('UTC'),
  SYNC_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
  SYNC_HTTP_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  SYNC_MAX_RETRY_AFTER_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  SYNC_SIM_EXPORT_EVERY_MINUTES: z.coerce.number().int().min(0).default(60),
  // Testing only (refused in production): every sync job fires every N seconds instead of daily at its hour.
  SYNC_SCHEDULE_EVERY_SECONDS: z.coerce
    .number()
    .int()
    .refine((n) => n === 0 || (n >= 5 && 60 % n === 0), 'must divide 60 (5, 6, 10, 12, 15, 20, 30 or 60), or be 0 (off)')
    .default(0),
  // Provider-send outbox: how long a claimed send is ours, and the first retry delay.
  OUTBOX_LEASE_SECONDS: z.coerce.number().int().min(5).max(86_400).default(300),
  OUTBOX_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  // The scan station: a second read of the same item by the same person within this many seconds of
  // its last advance is a scanner's double read, refused without a change.
  SCAN_REPEAT_SECONDS: z.coerce.number().int().min(0).max(600).default(5),
  // Automatic batching: how often each instance runs its pass (sites with the rule on).
  BATCH_EVERY_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  // Needs attention: an order sent to HP Site Flow with no answer after this many hours, and a
  // printed order not shipped after this many days, are listed.
  ATTENTION_HP_ACK_HOURS: z.coerce.number().int().min(1).max(720).default(4),
  ATTENTION_UNSHIPPED_DAYS: z.coerce.number().int().min(1).max(60).default(2),
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be smtp://host:port or smtps://host:port').optional(),
  // GET /metrics: a bearer token scrapers must send; unset (or empty) → loopback clients only.
  METRICS_TOKEN: z
    .string()
    .refine((v) => v === '' || v.length >= 16, 'must be at least 16 characters (or empty: loopback scrapers only)')
    .refine((v) => /^[\x21-\x7e]*$/.test(v), 'must be visible ASCII characters without spaces')
    .optional(),
  // GET /api/health/ready: not ready while the files folder's disk has less free space than this.
  READY_MIN_FREE_MB: z.coerce.number().int().min(0).max(10_000_000).default(512),
  // Scheduled backups: on when BACKUP_DIR is set.
  BACKUP_DIR: z.string().optional(),
  BACKUP_EVERY_HOURS: z.coerce.number().min(0.25, 'must be at least 0.25 (a quarter of an hour)').max(720, 'must be at most 720 (30 days)').default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  // Where files live: local (a folder under DATA_DIR) or s3 (an S3-compatible bucket shared by every instance).
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)').optional(),
  // Unset: AWS_REGION (the standard variable), else us-east-1 (what most S3-compatible stores expect).
  S3_REGION: z.string().regex(/^[a-z0-9-]+$/, 'must be a region name like eu-west-1 or auto').optional(),
  // For stores other than AWS (R2, B2, Garage, SeaweedFS, Ceph…): their URL.
  S3_ENDPOINT: z.string().url().optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_.-]+\/)*[A-Za-z0-9_.-]*$/, 'must be folder names separated by /, like presswork/ (no leading /)')
    .refine((p) => !p.split('/').some((s) => s === '.' || s === '..'), 'must not hold . or .. as a folder')
    .default(''),
});

export type Env = z.infer<typeof envSchema>;

/** The name of every setting read from the environment (the deploy guide's env file lists each one). */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

/** Each setting's value when it is not set (undefined: none, or one that depends on NODE_ENV). */
export const settingDefaults = (): Readonly<Record<string, unknown>> => envSchema.parse({});

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string | undefined;
  trustProxy: string;
  dataDir: string;
  /**
   * Longest wait for a lock before the call fails with 503: lockTimeoutMs (PostgreSQL lock_timeout,
   * default 5 s), busyTimeoutMs (SQLite busy_timeout, default 200 ms: the driver waits synchronously).
   * maxPageCount: a cap on the SQLite file (the fault suite's full disk).
   */
  database: ({ client: 'sqlite'; filename: string; maxPageCount?: number; busyTimeoutMs?: number; synchronous?: 'FULL' | 'NORMAL' } | { client: 'pg'; url: string; lockTimeoutMs?: number });
  jwt: { secret: string; expiresIn: string; secretIsGenerated: boolean };
  firstAdmin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  simulators: boolean;
  /** The demo's mail catcher (loopback, outside production only); 0 = any free port. */
  smtpCatcherPort: number;
  defaultSite: string | undefined;
  bodyLimit: string;
  uploads: { maxBytes: number; urlTtlSeconds: number };
  login: { maxFailures: number; windowSeconds: number };
  logLevel: Env['LOG_LEVEL'];
  /** SIGTERM/SIGINT: the bound on a graceful shutdown (lib/shutdown.ts). */
  shutdownTimeoutMs: number;
  editor: { url: string; allowedParentOrigins: string[]; sampleUrl: string };
  /** outputProfile: the id of an instance-wide print profile every site without its own prints with (unset: the bundled profile). */
  artwork: { allowedHosts: string[]; pdfTimeoutMs: number; outputProfile?: number };
  sync: {
    servicePath: string;
    scheduler: boolean;
    timezone: string;
    leaseSeconds: number;
    httpTimeoutMs: number;
    maxRetryAfterSeconds: number;
    simExportEveryMinutes: number;
    smtpUrl: string | undefined;
    /** 0: jobs run daily at their hour; N: every job fires every N seconds (tests). */
    scheduleEverySeconds: number;
  };
  outbox: { leaseSeconds: number; retryBaseSeconds: number };
  /** repeatSeconds: a scan of the item its scanner advanced less than this long ago changes nothing (0: off). */
  scan: { repeatSeconds: number };
  /** everySeconds: the automatic batching pass's period. */
  batches: { everySeconds: number };
  /** Needs attention's thresholds: HP silent this many hours, printed and not shipped this many days. */
  attention: { hpAckHours: number; unshippedDays: number };
  /** token: GET /metrics wants it as a bearer token; undefined → loopback clients only. */
  metrics: { token: string | undefined };
  /** minFreeMb: the free disk space below which GET /api/health/ready answers 503. */
  ready: { minFreeMb: number };
  /**
   * Scheduled backups into `dir` (none when undefined: a folder, or an s3://bucket/prefix/ address
   * reached with `bucket`, the S3_* settings) every `everyHours`, the newest `keep` kept.
   */
  backups: { dir: string | undefined; everyHours: number; keep: number; bucket?: Omit<Extract<StorageConfig, { kind: 's3' }>, 'kind'> };
  /** Where files live: the folder DATA_DIR/files, or a bucket (credentials undefined: the SDK's standard chain). */
  storage: StorageConfig;
}

export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      region: string | undefined;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      /** undefined: the SDK's own chain (AWS_ACCESS_KEY_ID…, profiles, instance roles). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      /** Put before every key ('' or ending in '/'): one bucket can hold several installs. */
      prefix: string;
    };

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

export class ConfigError extends Error {}

/** The demo sign-in used outside production when ADMIN_EMAIL / ADMIN_PASSWORD are not set. */
export const DEMO_ADMIN = { email: 'admin@presswork.local', password: 'presswork' };

function databaseFrom(env: Env, dataDir: string): Config['database'] {
  const url = env.DATABASE_URL;
  if (!url) return { client: 'sqlite', filename: path.join(dataDir, 'presswork.sqlite') };
  if (/^postgres(ql)?:\/\//.test(url)) return { client: 'pg', url };
  if (url.startsWith('sqlite:')) return { client: 'sqlite', filename: url.slice('sqlite:'.length) || ':memory:' };
  throw new ConfigError('DATABASE_URL must start with postgres:// or sqlite:');
}

function withDatabaseLimits(database: Config['database'], env: Env): Config['database'] {
  if (database.client === 'pg') return env.DB_LOCK_TIMEOUT_MS ? { ...database, lockTimeoutMs: env.DB_LOCK_TIMEOUT_MS } : database;
  const limits: { busyTimeoutMs?: number; maxPageCount?: number; synchronous?: 'FULL' | 'NORMAL' } = { synchronous: env.SQLITE_SYNCHRONOUS };
  if (env.SQLITE_BUSY_TIMEOUT_MS !== undefined) limits.busyTimeoutMs = env.SQLITE_BUSY_TIMEOUT_MS;
  if (env.SQLITE_MAX_PAGE_COUNT) limits.maxPageCount = env.SQLITE_MAX_PAGE_COUNT;
  return { ...database, ...limits };
}

function jwtSecretFrom(env: Env, dataDir: string, isProduction: boolean, leaveDataDir: boolean) {
  if (env.JWT_SECRET) {
    if (isProduction && (env.JWT_SECRET.length < 32 || /change|secret|default/i.test(env.JWT_SECRET))) {
      throw new ConfigError('JWT_SECRET must be a real secret of at least 32 characters in production');
    }
    return { secret: env.JWT_SECRET, secretIsGenerated: false };
  }
  if (isProduction) throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
  // Outside production a secret is generated once and kept, so sign-ins survive restarts.
  const file = path.join(dataDir, 'jwt-secret');
  if (leaveDataDir) return { secret: fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : crypto.randomBytes(48).toString('base64url'), secretIsGenerated: true };
  if (dataDir !== ':memory:') {
    fs.mkdirSync(dataDir, { recursive: true });
    if (fs.existsSync(file)) return { secret: fs.readFileSync(file, 'utf8').trim(), secretIsGenerated: true };
  }
  const secret = crypto.randomBytes(48).toString('base64url');
  if (dataDir !== ':memory:') fs.writeFileSync(file, secret, { mode: 0o600 });
  return { secret, secretIsGenerated: true };
}

/** s3://bucket or s3://bucket/some/prefix/ (a folder of a bucket). */
export const BACKUP_BUCKET_ADDRESS = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/(?:[^/]+\/)*)?$/;

function backupDirFrom(env: Env, dataDir: string): string | undefined {
  if (!env.BACKUP_DIR) return undefined;
  if (env.BACKUP_DIR.startsWith('s3://')) {
    const m = BACKUP_BUCKET_ADDRESS.exec(env.BACKUP_DIR);
    if (!m || (m[2] ?? '').split('/').some((p) => p === '.' || p === '..')) throw new ConfigError('BACKUP_DIR: a bucket is written s3://my-bucket/presswork-backups/ (ending in /)');
    return env.BACKUP_DIR;
  }
  const dir = path.resolve(env.BACKUP_DIR);
  // A restore needs an empty DATA_DIR: backups kept inside it would be in the way (and in each other).
  if (dataDir !== ':memory:' && (dir === dataDir || dir.startsWith(dataDir + path.sep))) throw new ConfigError('BACKUP_DIR must be outside DATA_DIR');
  return dir;
}

/** The S3_* settings reaching a BACKUP_DIR bucket (its own name; S3_BUCKET and STORAGE need not be set). */
function backupBucketFrom(env: Env, source: Record<string, string | undefined>, dir: string | undefined): { bucket?: Omit<Extract<StorageConfig, { kind: 's3' }>, 'kind'> } {
  const m = dir ? BACKUP_BUCKET_ADDRESS.exec(dir) : null;
  if (!m) return {};
  const s = storageFrom({ ...env, STORAGE: 's3', S3_BUCKET: m[1], S3_PREFIX: '' }, source);
  if (s.kind !== 's3') return {};
  const { kind: _kind, ...bucket } = s;
  return { bucket };
}

function storageFrom(env: Env, source: Record<string, string | undefined>): StorageConfig {
  if (env.STORAGE === 'local') return { kind: 'local' };
  if (!env.S3_BUCKET) throw new ConfigError('S3_BUCKET is required when STORAGE=s3, and to copy files into a bucket (storage:migrate)');
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither (the standard AWS variables are used then)');
  const prefix = env.S3_PREFIX && !env.S3_PREFIX.endsWith('/') ? `${env.S3_PREFIX}/` : env.S3_PREFIX;
  return {
    kind: 's3',
    bucket: env.S3_BUCKET,
    // The standard variable, read here so the SDK is handed one answer (and a missing region is us-east-1, not an error).
    region: env.S3_REGION ?? source.AWS_REGION ?? source.AWS_DEFAULT_REGION ?? undefined,
    endpoint: env.S3_ENDPOINT?.replace(/\/$/, ''),
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? false,
    credentials: env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
    prefix,
  };
}

/**
 * `leaveDataDir`: read the settings without creating DATA_DIR or the generated secret in it (the
 * backup and restore commands look at DATA_DIR as it is; a restore needs it empty).
 */
export function loadConfig(source: Record<string, string | undefined> = process.env, options: { leaveDataDir?: boolean; bucketWhateverStorage?: boolean | { bucket: string } } = {}): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const dataDir = env.DATA_DIR === ':memory:' ? ':memory:' : path.resolve(env.DATA_DIR);
  const simulators = env.SIMULATORS ?? !isProduction;
  const backupDir = backupDirFrom(env, dataDir);
  if (isProduction && simulators) throw new ConfigError('SIMULATORS cannot be enabled when NODE_ENV=production');
  if (isProduction && env.SYNC_SCHEDULE_EVERY_SECONDS) throw new ConfigError('SYNC_SCHEDULE_EVERY_SECONDS is for tests and cannot be set when NODE_ENV=production');
  // Production never falls back to the demo admin; an existing database keeps its users.
  const firstAdmin =
    env.ADMIN_EMAIL && env.ADMIN_PASSWORD
      ? { email: env.ADMIN_EMAIL.toLowerCase(), password: env.ADMIN_PASSWORD }
      : isProduction
        ? undefined
        : DEMO_ADMIN;
  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, ''),
    trustProxy: env.TRUST_PROXY,
    dataDir,
    database: withDatabaseLimits(databaseFrom(env, dataDir), env),
    jwt: { ...jwtSecretFrom(env, dataDir, isProduction, options.leaveDataDir ?? false), expiresIn: env.JWT_EXPIRES_IN },
    firstAdmin,
    seedDemo: env.SEED_DEMO ?? !isProduction,
    simulators,
    smtpCatcherPort: env.SMTP_CATCHER_PORT,
    defaultSite: env.DEFAULT_SITE,
    bodyLimit: env.BODY_LIMIT,
    uploads: { maxBytes: env.UPLOAD_MAX_BYTES, urlTtlSeconds: env.UPLOAD_URL_TTL_SECONDS },
    login: { maxFailures: env.LOGIN_MAX_FAILURES, windowSeconds: env.LOGIN_WINDOW_SECONDS },
    logLevel: env.LOG_LEVEL,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    editor: { url: env.EDITOR_URL, allowedParentOrigins: list(env.EDITOR_ALLOWED_PARENT_ORIGINS), sampleUrl: env.SAMPLE_EDITOR_URL },
    artwork: { allowedHosts: list(env.ARTWORK_ALLOWED_HOSTS).map((h) => h.toLowerCase()), pdfTimeoutMs: env.PDF_TIMEOUT_MS, outputProfile: env.PRINT_OUTPUT_PROFILE },
    sync: {
      servicePath: env.SYNC_SERVICE_PATH.replace(/\/$/, ''),
      scheduler: env.SYNC_SCHEDULER ?? true,
      timezone: env.SYNC_TIMEZONE,
      leaseSeconds: env.SYNC_LEASE_SECONDS,
      httpTimeoutMs: env.SYNC_HTTP_TIMEOUT_MS,
      maxRetryAfterSeconds: env.SYNC_MAX_RETRY_AFTER_SECONDS,
      simExportEveryMinutes: env.SYNC_SIM_EXPORT_EVERY_MINUTES,
      smtpUrl: env.SMTP_URL,
      scheduleEverySeconds: env.SYNC_SCHEDULE_EVERY_SECONDS,
    },
    outbox: { leaseSeconds: env.OUTBOX_LEASE_SECONDS, retryBaseSeconds: env.OUTBOX_RETRY_BASE_SECONDS },
    scan: { repeatSeconds: env.SCAN_REPEAT_SECONDS },
    batches: { everySeconds: env.BATCH_EVERY_SECONDS },
    attention: { hpAckHours: env.ATTENTION_HP_ACK_HOURS, unshippedDays: env.ATTENTION_UNSHIPPED_DAYS },
    metrics: { token: env.METRICS_TOKEN || undefined },
    ready: { minFreeMb: env.READY_MIN_FREE_MB },
    backups: { dir: backupDir, everyHours: env.BACKUP_EVERY_HOURS, keep: env.BACKUP_KEEP, ...backupBucketFrom(env, source, backupDir) },
    // bucketWhateverStorage: the bucket as STORAGE=s3 would read it (storage:migrate copies files before the switch).
    // With a bucket name: that bucket (a backup's s3:// address), S3_BUCKET not needed.
    storage: storageFrom(
      options.bucketWhateverStorage ? { ...env, STORAGE: 's3', ...(typeof options.bucketWhateverStorage === 'object' ? { S3_BUCKET: options.bucketWhateverStorage.bucket } : {}) } : env,
      source,
    ),
  };
}
