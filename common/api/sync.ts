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

/**
 * GET …/raiser-edge-sync-day-preview?day=: how many contacts a sync of that day changes, when known
 * without the CRM. basis 'webhooks': constituents whose change the CRM's webhooks reported that
 * day; 'last-run': what the last finished sync of that day matched; null: not known.
 */
export interface DayPreview {
  day: string;
  contacts: number | null;
  basis: 'webhooks' | 'last-run' | null;
}

export interface DayRunAnswer {
  run: SyncRun;
  alreadyRunning: boolean;
}

export interface SaveSyncConfigAnswer {
  config: JobConfig;
  message: string;
}

/** GET /api/sites/:site/raiser-edge/status: whether the CRM is connected, or must be connected again. */
export interface ReConnectionStatus {
  connected: boolean;
  /** Blackbaud refused the refresh token (invalid_grant): an admin clicks Reconnect. */
  needsReconnect: boolean;
  reason: string | null;
  connectedAt: string | null;
  environmentName: string | null;
}

/** POST /api/sites/:site/raiser-edge/connect-url: where to send the admin's browser (single use, 10 minutes). */
export interface ReConnectUrl {
  url: string;
  expiresAt: string;
  /** Our callback: the redirect URI the Blackbaud application must list. */
  redirectUri: string;
}

/** GET /api/sites/:site/raiser-edge/consent-options: the CRM's own lists and the site's choice. */
export interface ConsentOptions {
  sources: string[];
  categories: string[];
  source: string;
  category: string;
}

export interface ConsentSettingsAnswer {
  source: string;
  category: string;
  message: string;
}

/** A webhook subscription at the CRM, its key masked. */
export interface ReWebhookSubscription {
  id: string;
  eventType: string;
  webhookUrl: string;
  provisioningStatus: string | null;
  /** It points at this site's receiver with the current key. */
  ours: boolean;
}

/** GET (and POST, with `created`) /api/sites/:site/raiser-edge/webhook-subscriptions. */
export interface ReWebhookSubscriptions {
  list: ReWebhookSubscription[];
  eventTypes: string[];
  /** Event types we handle that have no subscription of ours yet. */
  missing: string[];
  created?: string[];
}

/** One step of a connectivity test call (`/api/test/…`): what it reached, how, and what went wrong. */
export interface ConnectivityCheck {
  step: string;
  url: string | null;
  status: number | null;
  latencyMs: number | null;
  ok: boolean;
  error: string | null;
  /** When something is wrong: the service's own answer, as it sent it (what the vendor's support will ask for). */
  body?: unknown;
}
