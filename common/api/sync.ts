// The CRM ↔ email-platform sync of a site (docs/sync.md): runs, drop files, scheduled jobs.
import type { Id, ListPage, RecordId } from './envelope';
import type { DataRecord } from './records';

export type SyncJob = 're-sync' | 'unsubscribe' | 'export80' | 'export92';
export type FileKind = 'unsubscribe' | 'export80' | 'export92';
export type RunKind = 'one' | 'day' | 'webhook' | FileKind;
export type RunTrigger = 'manual' | 'schedule' | 'catch-up' | 'webhook' | 'sync-service';
export type RunStatus = 'running' | 'success' | 'partial' | 'failed';

/** One constituent's outcome. */
export interface SyncResult {
  constituentId: string;
  name: string | null;
  email: string | null;
  category: string | null;
  consent: 'OptIn' | 'OptOut' | 'NoResponse' | null;
  consentDate: string | null;
  action: 'opted-in' | 'opted-out' | 'skipped';
  reason: string;
  contactId: string | null;
  /** The contact in Adestra. */
  link: string | null;
}

export interface RunError {
  message: string;
  kind?: string;
  constituentId?: string;
  file?: string;
  row?: number;
  email?: string;
}

export interface RunProgress {
  pages: number;
  seen: number;
  total: number | null;
  matched: number;
  done: number;
  failed: number;
}

export interface FileSummary {
  rows: number;
  rowsDone: number;
  applied: number;
  unchanged: number;
  unmatched: number;
  skipped: number;
  errors: number;
}

/** data of a `re-sync` record: one run. */
export interface RunData {
  kind: RunKind;
  trigger: RunTrigger;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  results: SyncResult[];
  errors: RunError[];
  optInList: string[];
  optOutList: string[];
  progress: RunProgress;
  files?: Array<{ name: string; status: string; summary?: FileSummary | null }>;
  note?: string;
}

/** A `re-sync` record: one run (field1: the constituent id, the day or the file name; field2: the kind). */
export type SyncRun = DataRecord<RunData>;

export interface RunPage extends ListPage<SyncRun> {
  page?: number;
}

export type FileStatus = 'unprocessed' | 'processing' | 'success' | 'failed';

/** A file of the drop folder with its processing state (list-file-*). */
export interface DropFile {
  name: string;
  kind: FileKind;
  day: string;
  size: number;
  modifiedAt: string;
  status: FileStatus;
  doneAt: string | null;
  result: FileSummary | null;
  rowsDone: number;
  rowsTotal: number | null;
  error: string | null;
}

export interface DropFileList extends ListPage<DropFile> {
  /** Exports only: the export's page in Adestra. */
  exportUrl?: string;
}

/** A processed-file record (list-handle-*, listAlreadyProcess). */
export interface ProcessedFile {
  id: RecordId;
  name: string;
  day: string | null;
  status: 'processing' | 'success' | 'failed';
  doneAt: string | null;
  result: FileSummary | null;
  rowsDone: number;
  rowsTotal: number;
  unmatched: string[];
  error: string | null;
  updatedAt?: string;
}

export interface ProcessFileAnswer {
  file: ProcessedFile | null;
  alreadyProcessed: boolean;
  error: string | null;
  result: FileSummary;
  unmatched: string[];
  runId: Id;
  listAlreadyProcess: ProcessedFile[];
}

export interface JobConfig {
  job: SyncJob;
  type: string;
  id: RecordId | null;
  hour: string;
  targetDate: string;
  updatedAt: string | null;
}

export interface JobStatus {
  job: SyncJob;
  label: string;
  hour: string;
  targetDate: string;
  targetDay: string;
  nextRunAt: string | null;
  lastScheduledAt: string | null;
  lastRunAt: string | null;
  lastFinishedAt: string | null;
  lastStatus: RunStatus | null;
  lastError: string | null;
  lastRecordId: RecordId | null;
  running: boolean;
}

export interface SyncStatus {
  timezone: string;
  scheduler: boolean;
  now: string;
  jobs: JobStatus[];
}

export interface SyncConfigs {
  list: JobConfig[];
  links: { export80?: string; export92?: string };
}

export interface SyncOneAnswer {
  result: SyncResult;
  run: SyncRun;
}

export interface DayRunAnswer {
  run: SyncRun;
  alreadyRunning: boolean;
}

export interface SaveSyncConfigAnswer {
  config: JobConfig;
  message: string;
}
