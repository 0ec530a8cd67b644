// Prometheus metrics of one app: a registry of its own (tests build several apps in one process),
// the recorders the modules call through their deps (`deps.metrics`), and the queue backlogs read
// from the database when /metrics is scraped. Names and labels are listed in docs/server-reference.md.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from 'pino';
import type { TaskObserver } from './threadPool';

/** What became of one send to the provider or the store. `retry`: kept, tried again later. */
export type SendResult = 'sent' | 'already-sent' | 'cancelled' | 'retry' | 'failed';

/** What the inbox did with an arriving webhook delivery. */
export type DeliveryArrival = 'stored' | 'duplicate' | 'ignored';

/** Webhook deliveries still to process, per source and status, and the oldest one's age. */
export interface InboxBacklog {
  source: string;
  status: string;
  depth: number;
  oldestAgeSeconds: number;
}

/** Pending outbox rows per kind, and the oldest one's age. */
export interface OutboxBacklog {
  kind: string;
  depth: number;
  oldestAgeSeconds: number;
}

export interface Backlogs {
  inbox: InboxBacklog[];
  outbox: OutboxBacklog[];
}

/** HTTP methods a label may name; anything else is counted as `other` (a label set stays small). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createMetrics(options: { log?: Logger } = {}) {
  const registry = new Registry();
  const registers = [registry];

  const httpDuration = new Histogram({
    name: 'presswork_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern (never the raw URL) and status class, and how long each took',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const webhooksReceived = new Counter({
    name: 'presswork_webhooks_received_total',
    help: 'Webhook deliveries that reached the inbox, by source and outcome (stored, duplicate, ignored)',
    labelNames: ['source', 'outcome'] as const,
    registers,
  });
  const webhooksProcessed = new Counter({ name: 'presswork_webhooks_processed_total', help: 'Webhook deliveries processed, by source', labelNames: ['source'] as const, registers });
  const webhooksFailed = new Counter({
    name: 'presswork_webhooks_failed_total',
    help: 'Webhook delivery processings that failed (the recovery pass retries them), by source',
    labelNames: ['source'] as const,
    registers,
  });
  const inboxDepth = new Gauge({ name: 'presswork_inbox_depth', help: 'Webhook deliveries not processed yet, by source and status (received, failed)', labelNames: ['source', 'status'] as const, registers });
  const inboxAge = new Gauge({ name: 'presswork_inbox_oldest_age_seconds', help: 'Age of the oldest webhook delivery not processed yet, by source and status', labelNames: ['source', 'status'] as const, registers });
  const outboxDepth = new Gauge({ name: 'presswork_outbox_depth', help: 'Outbound sends waiting (pending outbox rows), by kind', labelNames: ['kind'] as const, registers });
  const outboxAge = new Gauge({ name: 'presswork_outbox_oldest_age_seconds', help: 'Age of the oldest pending outbox row, by kind', labelNames: ['kind'] as const, registers });
  const providerSends = new Counter({
    name: 'presswork_provider_sends_total',
    help: 'Attempts to send to the print provider, by provider, action (order, cancel) and outcome',
    labelNames: ['provider', 'action', 'outcome'] as const,
    registers,
  });
  const storeSends = new Counter({ name: 'presswork_store_sends_total', help: 'Attempts to write a fulfilment back to the store, by store and outcome', labelNames: ['store', 'outcome'] as const, registers });
  const pdfDuration = new Histogram({
    name: 'presswork_pdf_duration_seconds',
    help: 'PDF work in the worker threads (queue wait included), by task (print-file, front-page) and outcome (ok, failed, timeout)',
    labelNames: ['task', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  const renderDuration = new Histogram({
    name: 'presswork_render_duration_seconds',
    help: 'Design renders in the worker threads (queue wait included), by outcome (ok, failed, timeout)',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  const syncRuns = new Counter({ name: 'presswork_sync_runs_total', help: 'CRM ↔ email-platform sync runs finished, by kind and outcome (success, partial, failed)', labelNames: ['kind', 'outcome'] as const, registers });

  let readBacklogs: (() => Promise<Backlogs>) | undefined;
  // Queues seen once stay reported (at 0 when empty): a series that vanishes cannot be alerted on.
  const seenInbox = new Map<string, { source: string; status: string }>();
  const seenOutbox = new Set<string>();
  let processMetrics = false;

  async function collectBacklogs(): Promise<void> {
    if (!readBacklogs) return;
    let backlogs: Backlogs;
    try {
      backlogs = await readBacklogs();
    } catch (err) {
      // No figures rather than stale ones; /api/health/ready says what is wrong.
      for (const g of [inboxDepth, inboxAge, outboxDepth, outboxAge]) g.reset();
      options.log?.warn({ err }, 'metrics: the queue backlogs could not be read');
      return;
    }
    for (const labels of seenInbox.values()) {
      inboxDepth.set(labels, 0);
      inboxAge.set(labels, 0);
    }
    for (const b of backlogs.inbox) {
      const labels = { source: b.source, status: b.status };
      seenInbox.set(`${b.source}\n${b.status}`, labels);
      inboxDepth.set(labels, b.depth);
      inboxAge.set(labels, b.oldestAgeSeconds);
    }
    for (const kind of seenOutbox) {
      outboxDepth.set({ kind }, 0);
      outboxAge.set({ kind }, 0);
    }
    for (const b of backlogs.outbox) {
      seenOutbox.add(b.kind);
      outboxDepth.set({ kind: b.kind }, b.depth);
      outboxAge.set({ kind: b.kind }, b.oldestAgeSeconds);
    }
  }

  const observer =
    (h: Histogram<'task' | 'outcome'>, task: string): TaskObserver =>
    (outcome, seconds) =>
      h.observe({ task, outcome }, seconds);

  return {
    registry,
    contentType: registry.contentType,

    /** The Prometheus text of everything, the queue backlogs read now. */
    async scrape(): Promise<string> {
      // Process metrics start with the first scrape: an app nobody scrapes (tests, benchmarks) runs no collectors.
      if (!processMetrics) {
        processMetrics = true;
        collectDefaultMetrics({ register: registry });
      }
      await collectBacklogs();
      return registry.metrics();
    },

    /** Where the queue backlogs come from (the inbox's and the outbox's repos, via their services). */
    readBacklogsWith(read: () => Promise<Backlogs>): void {
      readBacklogs = read;
    },

    httpRequest(method: string, route: string, status: number, seconds: number): void {
      httpDuration.observe({ method: METHODS.has(method) ? method : 'other', route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },

    webhookReceived(source: string, outcome: DeliveryArrival): void {
      webhooksReceived.inc({ source, outcome });
    },
    webhooksProcessed(source: string, count = 1): void {
      if (count > 0) webhooksProcessed.inc({ source }, count);
    },
    webhookFailed(source: string): void {
      webhooksFailed.inc({ source });
    },

    providerSend(action: 'order' | 'cancel', outcome: SendResult): void {
      providerSends.inc({ provider: 'hp', action, outcome });
    },
    storeSend(outcome: SendResult): void {
      storeSends.inc({ store: 'shopify', outcome });
    },

    /** Observers of worker-thread tasks (lib/threadPool.ts), one per kind of work. */
    pdfTask: { printFile: observer(pdfDuration, 'print-file'), frontPage: observer(pdfDuration, 'front-page') },
    renderTask: ((outcome, seconds) => renderDuration.observe({ outcome }, seconds)) as TaskObserver,

    syncRun(kind: string, outcome: string): void {
      syncRuns.inc({ kind, outcome });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
