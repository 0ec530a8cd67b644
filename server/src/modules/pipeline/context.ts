// What the pipeline's steps share: the outbox plumbing of the provider sends (leases, backoff), the
// CRM and email-platform clients of the sync, the renderer and the picture fetcher (e-cards) and the
// mail transport.
import type { Deps } from '../../deps';
import { createMailer, type Mailer } from '../../integrations/mailer';
import type { FulfilmentOptions } from '../fulfilment';
import type { ProductionService } from '../production';
import type { RenderService } from '../render';
import type { SyncService } from '../sync';

export interface PipelineContext extends Deps {
  options: FulfilmentOptions;
  production: Pick<ProductionService, 'mapLines'>;
  render: Pick<RenderService, 'renderDocument'>;
  /** A stored or allowed file's bytes (the artwork fetcher): a picture e-card's image. */
  fetchPicture: (url: string) => Promise<Buffer>;
  clients: SyncService['clients'];
  /** The mail transport of an SMTP URL (tests: shorter timeouts). */
  mailerFor(smtpUrl: string): Mailer;
  /** Tests: called after a step's outside call answered and before its outcome is written (a crash there). */
  hooks?: { afterCall?: (info: { step: string; outboxId: number }) => void | Promise<void> };
}

export function pipelineContext(deps: Deps, parts: Omit<PipelineContext, keyof Deps | 'mailerFor'> & { mailerFor?: PipelineContext['mailerFor'] }): PipelineContext {
  return { ...deps, ...parts, mailerFor: parts.mailerFor ?? ((url) => createMailer(url, { timeoutMs: 20_000 })) };
}
