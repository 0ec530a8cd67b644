// Needs attention (GET /api/attention): what is wrong on the floor, worst first, each with the
// admin route where it is fixed. The server lists and counts; the admin page and the menu badge
// show the same answer.
import type { RecordId } from './envelope';

/** The kinds of problem, in the order the page groups them when their severity and age tie. */
export const ATTENTION_KINDS = ['late', 'sendFailed', 'webhookFailing', 'atRisk', 'held', 'routingHeld', 'hpNoAck', 'notShipped', 'writeBackFailed', 'pipelineFailed', 'proofChange', 'storeHoldRefused', 'lowStock'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** How bad each kind is: a late order or an order that never reached the provider cannot wait. */
export const SEVERITY_OF: Record<AttentionKind, Severity> = {
  late: 'critical',
  sendFailed: 'critical',
  webhookFailing: 'critical',
  atRisk: 'warning',
  held: 'warning',
  routingHeld: 'warning',
  hpNoAck: 'warning',
  notShipped: 'warning',
  writeBackFailed: 'warning',
  pipelineFailed: 'warning',
  proofChange: 'warning',
  storeHoldRefused: 'info',
  lowStock: 'warning',
};

/** The most items of one kind in an answer; `counts` still counts them all ("and N more"). */
export const ATTENTION_KIND_LIMIT = 100;

/** How often the admin asks again (the page and the menu share one poll). */
export const ATTENTION_POLL_MS = 30_000;

export interface AttentionItem {
  kind: AttentionKind;
  severity: Severity;
  /** A plain sentence naming the order or job. */
  title: string;
  /** The admin route where it is fixed. */
  link: string;
  /** When it became a problem (ISO). */
  since: string;
  siteId: RecordId | null;
  /** The site's name, for admins (who see every site's problems). */
  siteName?: string;
  /** The store order's id, when the problem is an order's. */
  orderId?: string;
  jobId?: RecordId;
  /** A line held by a routing rule: Route now routes it again by today's rules. */
  lineId?: string;
  /** The stock item running low (lowStock). */
  stockItemId?: RecordId;
}

export type AttentionCounts = Record<AttentionKind, number> & { total: number; critical: number };

export interface AttentionAnswer {
  items: AttentionItem[];
  counts: AttentionCounts;
}

/** What each kind is called on the page (a group's heading, a chip). */
export const KIND_LABEL: Record<AttentionKind, string> = {
  late: 'Late',
  atRisk: 'At risk',
  held: 'Held by preflight',
  routingHeld: 'Held by a routing rule',
  hpNoAck: 'No answer from HP',
  notShipped: 'Printed, not shipped',
  sendFailed: 'Send to HP failed',
  writeBackFailed: 'Store update failed',
  pipelineFailed: 'Order step failed',
  webhookFailing: 'Webhooks failing',
  proofChange: 'Buyer asked for a change',
  storeHoldRefused: 'Store cannot hold orders',
  lowStock: 'Stock running low',
};

/** Jobs opened on one job, highlighted (its Held tab when preflight holds it). */
export const jobInQueueLink = (jobId: RecordId, held = false) => `/print-jobs?${held ? 'tab=held&' : ''}job=${jobId}`;

/** "4 problems, 1 critical": the Needs attention page and its menu entry's spoken count say the same. */
export function attentionSummary(counts: Pick<AttentionCounts, 'total' | 'critical'>): string {
  return `${counts.total} ${counts.total === 1 ? 'problem' : 'problems'}${counts.critical ? `, ${counts.critical} critical` : ''}`;
}
