// The history (audit trail): what GET /api/print-jobs/:id/history, GET
// /api/online-stores/order-history?id= and GET /api/history answer, and the Timeline shows.

/** What an entry tells of: a print job, a store order, a batch, a send (an order or a cancel to HP Site Flow, tracking to the store) or a sync run. */
export type HistorySubjectKind = 'job' | 'order' | 'batch' | 'send' | 'sync';
export const HISTORY_SUBJECT_KINDS: readonly HistorySubjectKind[] = ['job', 'order', 'batch', 'send', 'sync'];

/** Who made the change: a user (their name as it was then), or a rule or webhook of Presswork. */
export type HistoryActor = { id: number | null; name: string } | { automatic: string };

export interface HistoryEntry {
  /** ISO time of the change. */
  at: string;
  actor: HistoryActor;
  /** What happened, e.g. `printed`, `reprinted`, `paid`, `moved`. */
  action: string;
  from: string | null;
  to: string | null;
  reason: string | null;
}

/** An entry of the admin trail: the entry and what it tells of. */
export interface HistoryTrailEntry extends HistoryEntry {
  id: number;
  siteId: number;
  kind: HistorySubjectKind;
  subjectId: string;
  orderRef: string | null;
}

/** An order's timeline entry also says which of its jobs or sends it tells of. */
export interface OrderHistoryEntry extends HistoryEntry {
  kind: HistorySubjectKind;
  subjectId: string;
}

/** Words the screens show for an action (anything not listed shows as it is). */
export const HISTORY_ACTION_LABELS: Record<string, string> = {
  created: 'Created',
  downloaded: 'Downloaded',
  printed: 'Marked printed',
  reset: 'Put back as not downloaded',
  reprinted: 'Reprinted',
  packed: 'Packed',
  'copy-packed': 'Copy packed',
  deleted: 'Deleted',
  withdrawn: 'Withdrawn (not to be made)',
  restored: 'Back in the queue',
  'to-provider': 'Moved to HP Site Flow',
  'to-in-house': 'Moved to the Jobs queue',
  held: 'Held by preflight',
  approved: 'Approved anyway',
  rechecked: 'Re-checked',
  stored: 'Order received',
  paid: 'Paid',
  cancelled: 'Cancelled',
  status: 'Status changed',
  shipped: 'Marked shipped',
  moved: 'Moved on',
  closed: 'Closed',
  queued: 'Send queued',
  sent: 'Sent',
  failed: 'Failed',
  rescheduled: 'Failed, will retry',
  stopped: 'Stopped before it went',
  'cancel-queued': 'Cancellation queued',
  'cancel-failed': 'Cancellation failed',
  'store-fulfilled': 'Fulfilled in the store',
  'store-failed': 'Store fulfilment failed',
  batched: 'Joined a batch',
  unbatched: 'Left its batch',
  started: 'Started',
  finished: 'Finished',
  'privacy-listed': 'Listed for a data request',
  redacted: 'Customer data redacted',
  'redaction-waiting': 'Redaction waits until shipped',
};

/** An action's words where they depend on what changed: the store cancels an order, HP Site Flow a send. */
const KIND_ACTION_LABELS: Partial<Record<HistorySubjectKind, Record<string, string>>> = {
  order: { cancelled: 'Cancelled in the store' },
  send: { cancelled: 'Cancelled at HP Site Flow' },
};

export const historyActionLabel = (action: string, kind?: HistorySubjectKind) => (kind && KIND_ACTION_LABELS[kind]?.[action]) ?? HISTORY_ACTION_LABELS[action] ?? action;

/** "Sam Staff" or "Automatic: Shopify webhook orders/paid". */
export const historyActorLabel = (actor: HistoryActor) => ('automatic' in actor ? `Automatic: ${actor.automatic}` : actor.name);
