import type { FileKind, RunKind, RunStatus, SyncJob, SyncResult } from '../../../../common/api/sync';
// Words and colours of the sync screen.

export const SCREEN_TITLE = 'RE & Adestra Sync';

export const AREAS = [
  { value: 're', label: 'RE to Adestra' },
  { value: 'unsubscribe', label: 'Unsubscribe sync' },
  { value: 'export80', label: 'Sync Export 80' },
  { value: 'export92', label: 'Sync Export 92' },
] as const;

export type Area = (typeof AREAS)[number]['value'];

export const isArea = (v: string | null): v is Area => AREAS.some((a) => a.value === v);

/** The exports' headings (spec §2; the Export 92 one reads Export92, not the original's export80). */
export const EXPORT_TITLES: Record<Exclude<FileKind, 'unsubscribe'>, string> = {
  export80: 'Adestra Export80 Sync RE Configuration',
  export92: 'Adestra Export92 Sync RE Configuration',
};

export const JOB_LABELS: Record<SyncJob, string> = {
  're-sync': 'RE to Adestra',
  unsubscribe: 'Unsubscribe sync',
  export80: 'Export 80',
  export92: 'Export 92',
};

export const RUN_KIND_LABELS: Record<RunKind, string> = {
  one: 'One constituent',
  day: 'Day',
  webhook: 'CRM webhook',
  unsubscribe: 'Unsubscribe file',
  export80: 'Export 80 file',
  export92: 'Export 92 file',
};

export const TRIGGER_LABELS: Record<string, string> = {
  manual: 'Manual',
  schedule: 'Scheduled',
  'catch-up': 'Catch-up',
  webhook: 'Webhook',
  'sync-service': 'Sync service',
};

export const STATUS_COLOURS: Record<string, 'default' | 'info' | 'success' | 'warning' | 'error'> = {
  running: 'info',
  processing: 'info',
  success: 'success',
  partial: 'warning',
  failed: 'error',
  unprocessed: 'default',
};

export const STATUS_LABELS: Record<string, string> = {
  running: 'Running',
  processing: 'Processing',
  success: 'Success',
  partial: 'Partly done',
  failed: 'Failed',
  unprocessed: 'Unprocessed',
};

export const statusLabel = (status: RunStatus | string | null | undefined) => (status ? (STATUS_LABELS[status] ?? status) : '');

export const ACTION_LABELS: Record<SyncResult['action'], string> = {
  'opted-in': 'Opted in',
  'opted-out': 'Opted out',
  skipped: 'Skipped',
};

export const ACTION_COLOURS: Record<SyncResult['action'], 'success' | 'warning' | 'default'> = {
  'opted-in': 'success',
  'opted-out': 'warning',
  skipped: 'default',
};

export const REASON_LABELS: Record<string, string> = {
  'consent-opt-in': 'Email consent: opt-in',
  'consent-opt-out': 'Email consent: opt-out',
  'no-consent': 'No email consent given',
  'no-email': 'No email address',
  'email-inactive': 'Email address inactive',
  'email-do-not-email': 'Email marked "do not email"',
  deceased: 'Deceased',
  inactive: 'Constituent inactive',
  'requests-no-email': 'Requests no email',
  deleted: 'Deleted from the CRM',
};

export const reasonLabel = (reason: string | null | undefined) => (reason ? (REASON_LABELS[reason] ?? reason) : '');
