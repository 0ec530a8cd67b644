// The CRM ↔ email-platform sync of a site (docs/sync.md): Raiser's Edge → Adestra,
// unsubscribe and Export 80/92 files → the CRM, the four scheduled jobs. The records are in common/api.
import type {
  ConsentOptions,
  ConsentSettingsAnswer,
  DayPreview,
  DayRunAnswer,
  DropFileList,
  FileKind,
  ProcessedFile,
  ProcessFileAnswer,
  ReConnectionStatus,
  ReConnectUrl,
  ReWebhookSubscriptions,
  RunKind,
  RunPage,
  RunStatus,
  SaveSyncConfigAnswer,
  SyncConfigs,
  SyncJob,
  SyncOneAnswer,
  SyncRun,
  SyncStatus,
} from '../../../common/api/sync';
import type { Id, ListPage } from '../../../common/api/envelope';
import type { Site, SiteInfo } from '../../../common/api/sites';
import { api, ApiError } from './api';
import { authHeaders } from './session';

export interface SyncSite {
  id: Id;
  name: string;
  slug: string;
}

export interface RunListQuery {
  page: number;
  pageSize?: number;
  kind?: RunKind;
  status?: RunStatus;
}

/** What each file area calls (docs/sync.md, "Files"). */
export const FILE_CALLS: Record<FileKind, { list: string; handled: string; process: string }> = {
  unsubscribe: { list: 'list-file-unsubscribe', handled: 'list-handle-unsubscribe', process: 'sync-single-unsubscribe-file' },
  export80: { list: 'list-file-export80', handled: 'list-handle-export80', process: 'sync-single-export80' },
  export92: { list: 'list-file-export92', handled: 'list-handle-export92', process: 'sync-single-export92' },
};

/** The spec's messages (§5, typo included) and the save confirmation (§8). */
export const MSG_CONSTITUENT_REQUIRED = 'Please enter RE constitunent id';
export const MSG_DAY_REQUIRED = 'Please enter the date';
export const MSG_DAY_FORMAT = 'The date must be in the format YYYY-MM-DD';
export const MSG_CONFIG_SAVED = 'Sync config saved';

const enc = encodeURIComponent;
const base = (site: string) => `/api/sites/${enc(site)}`;

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') q.set(key, String(value));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The server's extra error details (`details` of a 502/503/404), when it sent some. */
export function errorDetailsOf(error: unknown): { service?: string; kind?: string; status?: number; retryAfterSeconds?: number } | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const details = (error.body as { details?: unknown } | undefined)?.details;
  return details && typeof details === 'object' ? (details as Record<string, never>) : undefined;
}

/** Named calls of the sync screen; spread into the dataProvider. `site` is the site's slug (or id). */
export const syncCalls = {
  syncOneConstituent(site: string, constituentId: string, idempotencyKey?: string): Promise<SyncOneAnswer> {
    return api<SyncOneAnswer>(`${base(site)}/raiser-edge-sync-one`, { method: 'POST', body: { constituent_id: constituentId }, idempotencyKey });
  },

  /** How many contacts a sync of the day changes, when the server knows without the CRM. */
  getDayPreview(site: string, day: string): Promise<DayPreview> {
    return api<DayPreview>(`${base(site)}/raiser-edge-sync-day-preview${query({ day })}`);
  },

  /** Starts the sync of a day; answers at once with the run (status running) to poll. */
  syncDay(site: string, day: string, idempotencyKey?: string): Promise<DayRunAnswer> {
    return api<DayRunAnswer>(`${base(site)}/raiser-edge-sync-list-from-specific-day`, { method: 'POST', body: { day }, idempotencyKey });
  },

  getSyncRun(site: string, id: Id): Promise<SyncRun> {
    return api<SyncRun>(`${base(site)}/raiser-edge-sync/${enc(String(id))}`);
  },

  /** The execution logs, newest first. */
  getSyncRuns(site: string, { page, pageSize, kind, status }: RunListQuery): Promise<RunPage> {
    return api<RunPage>(`${base(site)}/raiser-edge-sync/list${query({ page, pageSize, kind, status })}`);
  },

  getSyncFiles(site: string, kind: FileKind): Promise<DropFileList> {
    return api<DropFileList>(`${base(site)}/${FILE_CALLS[kind].list}`);
  },

  getProcessedSyncFiles(site: string, kind: FileKind): Promise<ListPage<ProcessedFile>> {
    return api<ListPage<ProcessedFile>>(`${base(site)}/${FILE_CALLS[kind].handled}`);
  },

  /** Processes one file (a failed or half-done one resumes); `force` processes a done one again. */
  processSyncFile(site: string, kind: FileKind, name: string, force = false): Promise<ProcessFileAnswer> {
    return api<ProcessFileAnswer>(`${base(site)}/${FILE_CALLS[kind].process}`, { method: 'POST', body: force ? { name, force: true } : { name } });
  },

  /**
   * Admins: the sites that have the sync (features.sync of GET /api/sites/info?slug=…; the admin
   * sites list carries no features), in the sites list's order.
   */
  async getSyncSites(): Promise<SyncSite[]> {
    const sites = await api<ListPage<Site>>('/api/sites?page=1');
    const infos = await Promise.all(
      (sites?.list ?? []).map((s) =>
        api<{ data: SiteInfo | null }>(`/api/sites/info${query({ slug: s.slug })}`).then(
          (answer) => Boolean(answer?.data?.features?.sync),
          () => false,
        ),
      ),
    );
    return (sites?.list ?? []).filter((_, i) => infos[i]).map((s) => ({ id: s.id, name: s.name, slug: s.slug }));
  },

  getSyncConfigs(site: string): Promise<SyncConfigs> {
    return api<SyncConfigs>(`${base(site)}/sync-config`);
  },

  saveSyncConfig(site: string, job: SyncJob, input: { hour: string; targetDate?: string }): Promise<SaveSyncConfigAnswer> {
    return api<SaveSyncConfigAnswer>(`${base(site)}/sync-config/${enc(job)}`, { method: 'POST', body: input });
  },

  getSyncStatus(site: string): Promise<SyncStatus> {
    return api<SyncStatus>(`${base(site)}/sync-status`);
  },

  /** Whether the site's Raiser's Edge is connected, or must be connected again. */
  getReConnection(site: string): Promise<ReConnectionStatus> {
    return api<ReConnectionStatus>(`${base(site)}/raiser-edge/status`);
  },

  /** A fresh Blackbaud authorisation address: the page then sends the browser there (a navigation carries no token). */
  getReConnectUrl(site: string): Promise<ReConnectUrl> {
    return api<ReConnectUrl>(`${base(site)}/raiser-edge/connect-url`, { method: 'POST', body: {} });
  },

  getConsentOptions(site: string): Promise<ConsentOptions> {
    return api<ConsentOptions>(`${base(site)}/raiser-edge/consent-options`);
  },

  saveConsentSettings(site: string, input: { source: string; category: string }): Promise<ConsentSettingsAnswer> {
    return api<ConsentSettingsAnswer>(`${base(site)}/raiser-edge/consent-settings`, { method: 'POST', body: input });
  },

  getWebhookSubscriptions(site: string): Promise<ReWebhookSubscriptions> {
    return api<ReWebhookSubscriptions>(`${base(site)}/raiser-edge/webhook-subscriptions`);
  },

  /** Creates the subscriptions the site lacks (never a second one of a kind). */
  createWebhookSubscriptions(site: string, idempotencyKey?: string): Promise<ReWebhookSubscriptions> {
    return api<ReWebhookSubscriptions>(`${base(site)}/raiser-edge/webhook-subscriptions`, { method: 'POST', body: {}, idempotencyKey });
  },

  /** An export file as a CSV blob (the call needs the token, so no plain link). */
  async downloadSyncFile(site: string, name: string): Promise<Blob> {
    const res = await fetch(`${base(site)}/download-export/${enc(name)}`, { headers: { Accept: 'text/csv, application/json', ...authHeaders() } });
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as { error?: string };
      throw new ApiError(body.error || `Download failed (${res.status})`, res.status, body);
    }
    return res.blob();
  },
};
