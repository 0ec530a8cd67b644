// The charity's order pipeline (SPEC §7 rerun-order): the steps besides the provider send that every
// order of a site with the pipeline goes through — the buyer into the CRM, into the email platform,
// and each e-card line e-mailed to its recipient. Each step is an outbox row (exactly once per order).

/** The pipeline steps, in the order they run (the CRM id goes with the email-platform contact). */
export const PIPELINE_STEPS = ['addToRaisersEdge', 'addToAdestra', 'sendEcard'] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];

/** Site settings (settings.env) of the pipeline: `1` runs the step automatically on a paid order. */
export const PIPELINE_SETTINGS = {
  addToRaisersEdge: 'PIPELINE_ADD_TO_CRM',
  addToAdestra: 'PIPELINE_ADD_TO_ADESTRA',
  sendEcard: 'PIPELINE_SEND_ECARD',
} as const satisfies Record<PipelineStep, string>;

/**
 * What Check order shows of one step of one order:
 * - not-configured: the site lacks the settings the step needs (`message` names them);
 * - off: configured, but not run automatically (PIPELINE_* is not 1): Re-run runs it;
 * - waiting-for-payment: runs once the order is paid;
 * - not-needed: nothing to do (e.g. no e-card line);
 * - queued: an outbox row waits (`nextAttemptAt`: its send date, or the next retry after `message`);
 * - done: finished at `at`, `ref` the constituent / contact id / e-mail Message-ID;
 * - failed: stopped, `message` the service's answer; Re-run tries again.
 */
export type PipelineStepState = 'not-configured' | 'off' | 'waiting-for-payment' | 'not-needed' | 'queued' | 'done' | 'failed';

export interface PipelineStepView {
  step: PipelineStep;
  /** The e-card line (sendEcard), else null. */
  lineId: string | null;
  state: PipelineStepState;
  message: string | null;
  /** The CRM constituent id, the Adestra contact id, or the e-mail's Message-ID. */
  ref: string | null;
  /** Where the record can be looked at, when the service has an address for it. */
  link: string | null;
  /** The e-card's recipient (sendEcard). */
  recipient: string | null;
  /** When it was done or failed. */
  at: string | null;
  /** Queued: when it runs (the e-card's send date, or the next retry). */
  nextAttemptAt: string | null;
  attempts: number;
  outboxId: number | null;
  /** Admins, a step not set up: where its settings are set (the site's editor). */
  settingsLink?: string;
}

/**
 * GET /api/orders/:orderId/pipeline: the steps the order's site has (switched on, or set up in
 * part), and an e-card step for an order with an e-card line; none on a site without the pipeline.
 */
export interface OrderPipeline {
  orderId: string;
  siteId: number;
  steps: PipelineStepView[];
}

/** E-card line properties (Shopify line_items[].properties, names matched case-insensitively). */
export const ECARD_PROPERTIES = {
  recipientName: 'Recipient name',
  recipientEmail: 'Recipient email',
  message: 'Message',
  sendDate: 'Send date',
} as const;
