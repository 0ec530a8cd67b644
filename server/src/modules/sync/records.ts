// What the sync keeps, as the spec's general-data records:
//  - `re-sync`: one run log per run (spec §3 sync log);
//  - `re-sync-config`, `adestra-unsubscribe-sync`, `adestra-export80-sync`, `adestra-export92-sync`:
//    the four jobs' configs {hour, targetDate}, public permission read + update only;
//  - `adestra-<kind>-sync-file`: one processed-file record per drop file, with its row checkpoint.
import type { Db } from '../../db';
import { AUTOMATIC, byUserId, recordChange } from '../history';
import type { Clock } from '../../lib/clock';
import { type DataRecord, insertRecord, findRecord, listRecords, updateRecord } from '../general-data';
import { RECORD_TYPES } from '../records';
import type { Permission } from '../auth';
import type { FileKind } from './files';
import { FILE_KINDS } from './files';
import type { SyncResult } from './constituent';
import type { JobConfig, RunData as RunDataAnswer, RunError, RunKind, RunStatus, RunTrigger } from '../../../../common/api/sync';

export const RUN_TYPE = RECORD_TYPES.syncRun;
export const SYSTEM_PERMISSION: Permission = { create: false, read: true, update: false, delete: false };
export const CONFIG_PERMISSION: Permission = { create: false, read: true, update: true, delete: false };

export type JobName = 're-sync' | FileKind;
export const JOB_NAMES: JobName[] = ['re-sync', 'unsubscribe', 'export80', 'export92'];
export const isJobName = (s: string): s is JobName => (JOB_NAMES as string[]).includes(s);

export const JOBS: Record<JobName, { configType: string; defaultHour: number; label: string }> = {
  're-sync': { configType: 're-sync-config', defaultHour: 19, label: 'RE to email platform' },
  unsubscribe: { configType: 'adestra-unsubscribe-sync', defaultHour: 2, label: 'Unsubscribe sync' },
  export80: { configType: 'adestra-export80-sync', defaultHour: 4, label: 'Sync Export 80' },
  export92: { configType: 'adestra-export92-sync', defaultHour: 6, label: 'Sync Export 92' },
};

export type { RunError, RunKind, RunStatus, RunTrigger };

/** A run as the API shows it (common/api/sync.ts), its results as the sync writes them. */
export interface RunData extends Omit<RunDataAnswer, 'results'> {
  results: SyncResult[];
  [k: string]: unknown;
}

export type { JobConfig };

export interface FileRecordData {
  name: string;
  kind: FileKind;
  day: string | null;
  status: 'processing' | 'success' | 'failed';
  sha256: string | null;
  delimiter: string | null;
  rowsTotal: number;
  /** The checkpoint: rows [0, rowsDone) are applied. Committed after each row. */
  rowsDone: number;
  applied: number;
  unchanged: number;
  unmatched: string[];
  skipped: Array<{ row: number; reason: string }>;
  errors: RunError[];
  runs: number;
  startedAt: string | null;
  finishedAt: string | null;
  doneAt: string | null;
  error: string | null;
  [k: string]: unknown;
}

/** Who starts a run of each trigger, as the history names them. */
const RUN_STARTED_BY: Record<RunTrigger, string> = {
  manual: 'Sync run by hand',
  schedule: AUTOMATIC.scheduledSync,
  'catch-up': `${AUTOMATIC.scheduledSync} (catch-up)`,
  webhook: "Raiser's Edge webhook",
  'sync-service': 'Sync service',
};

export function syncRecords(db: Db, clock: Clock) {
  const now = () => clock.now().toISOString();

  return {

    async createRun(siteId: number, kind: RunKind, field1: string, trigger: RunTrigger, userId: number | null): Promise<{ id: number; data: RunData }> {
      const at = now();
      const data: RunData = {
        kind,
        trigger,
        status: 'running',
        startedAt: at,
        finishedAt: null,
        results: [],
        errors: [],
        optInList: [],
        optOutList: [],
        progress: { pages: 0, seen: 0, total: null, matched: 0, done: 0, failed: 0 },
      };
      if (userId) data.userId = userId;
      const id = await db.transaction(async (trx) => {
        // Written by Presswork: no creator, so only admins may change it by hand.
        const runId = await insertRecord(trx, { type: RUN_TYPE, field1, field2: kind, name: trigger, status: 'running', data, siteId, userId: null, publicPermission: SYSTEM_PERMISSION, createdAt: at, updatedAt: at });
        const by = trigger === 'manual' ? await byUserId(trx, userId, RUN_STARTED_BY.manual) : { automatic: RUN_STARTED_BY[trigger] };
        await recordChange(trx, { at, siteId, kind: 'sync', subjectId: runId, by, action: 'started', to: 'running', reason: `${kind} ${field1}`.trim() });
        return runId;
      });
      return { id, data };
    },

    /** Saves a run's progress; its end (running → success, partial or failed) enters the history with it. */
    async saveRun(id: number, data: RunData): Promise<void> {
      if (data.status === 'running') return void (await updateRecord(db, id, { data, status: data.status, updatedAt: now() }));
      await db.transaction(async (trx) => {
        const before = await findRecord(trx, id);
        const at = now();
        await updateRecord(trx, id, { data, status: data.status, updatedAt: at });
        if (before?.status !== 'running' || before.siteId === null) return;
        const reason = data.errors.length ? data.errors.map((e) => e.message).slice(0, 3).join('; ') : null;
        await recordChange(trx, { at, siteId: before.siteId, kind: 'sync', subjectId: id, by: await byUserId(trx, data.trigger === 'manual' ? Number(data.userId ?? 0) || null : null, RUN_STARTED_BY[data.trigger] ?? AUTOMATIC.scheduledSync), action: data.status === 'failed' ? 'failed' : 'finished', from: 'running', to: data.status, reason });
      });
    },

    async getRun(id: number): Promise<DataRecord<RunData> | undefined> {
      const r = await findRecord(db, id);
      return r && r.type === RUN_TYPE ? (r as unknown as DataRecord<RunData>) : undefined;
    },

    async listRuns(siteId: number, f: { kind?: string; field1?: string; status?: string }, limit: number, offset: number) {
      return listRecords(db, { type: RUN_TYPE, siteId, field2: f.kind, field1: f.field1, status: f.status }, { field: 'createdAt', order: 'desc' }, limit, offset);
    },

    async getConfig(siteId: number, job: JobName): Promise<JobConfig> {
      const { rows } = await listRecords(db, { type: JOBS[job].configType, siteId }, { field: 'id', order: 'asc' }, 1, 0);
      const r = rows[0];
      const data = (r?.data ?? {}) as { hour?: unknown; targetDate?: unknown };
      return {
        job,
        type: JOBS[job].configType,
        id: r?.id ?? null,
        hour: data.hour === undefined || data.hour === null || data.hour === '' ? String(JOBS[job].defaultHour) : String(data.hour),
        targetDate: typeof data.targetDate === 'string' && data.targetDate ? data.targetDate : 'yesterday',
        updatedAt: r?.updatedAt ?? null,
      };
    },

    async saveConfig(siteId: number, job: JobName, input: { hour: string; targetDate?: string }, userId: number | null): Promise<JobConfig> {
      const current = await this.getConfig(siteId, job);
      const data = { hour: input.hour, targetDate: input.targetDate ?? current.targetDate };
      const at = now();
      if (current.id) await updateRecord(db, current.id, { data, publicPermission: CONFIG_PERMISSION, updatedAt: at });
      else await insertRecord(db, { type: JOBS[job].configType, field1: job, field2: null, name: JOBS[job].label, data, siteId, userId, publicPermission: CONFIG_PERMISSION, createdAt: at, updatedAt: at });
      return this.getConfig(siteId, job);
    },

    async fileRecord(siteId: number, kind: FileKind, name: string): Promise<DataRecord<FileRecordData> | undefined> {
      const { rows } = await listRecords(db, { type: FILE_KINDS[kind].recordType, siteId, field1: name }, { field: 'id', order: 'asc' }, 1, 0);
      return rows[0] as unknown as DataRecord<FileRecordData> | undefined;
    },

    async createFileRecord(siteId: number, kind: FileKind, data: FileRecordData): Promise<number> {
      const at = now();
      return insertRecord(db, { type: FILE_KINDS[kind].recordType, field1: data.name, field2: data.day, name: data.name, status: data.status, data, siteId, userId: null, publicPermission: SYSTEM_PERMISSION, createdAt: at, updatedAt: at });
    },

    saveFileRecord: (id: number, data: FileRecordData) => updateRecord(db, id, { data, status: data.status, updatedAt: now() }),

    async listFileRecords(siteId: number, kind: FileKind, limit = 500) {
      const { rows } = await listRecords(db, { type: FILE_KINDS[kind].recordType, siteId }, { field: 'field1', order: 'desc' }, limit, 0);
      return rows as unknown as Array<DataRecord<FileRecordData>>;
    },
  };
}

export type SyncRecords = ReturnType<typeof syncRecords>;
