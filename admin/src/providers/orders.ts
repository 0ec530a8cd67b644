// Reading orders and fulfilment answers (docs/orders-fulfilment.md); the records are in common/api.
import type { Id } from '../../../common/api/envelope';
import { customerNameOf as customerNameOfData, type LineProduction, type OrderLineItem, type OrderRecord } from '../../../common/api/orders';
import type { PreflightState } from '../../../common/api/preflight';
import type { MadeBy } from '../../../common/api/printProduction';
import { ApiError } from './api';

/** The store order id of an order record (field1, else data.id). */
export function storeOrderId(order: OrderRecord): string {
  return order.field1 ?? String(order.data?.id ?? '');
}

export function orderStatusOf(order: OrderRecord): string {
  return order.status ?? order.data?.status ?? '';
}

/** Who the order is for (one rule for every screen and the provider's body). */
export function customerNameOf(order: OrderRecord): string {
  return customerNameOfData(order.data);
}

export function lineItemsOf(order: OrderRecord): OrderLineItem[] {
  return Array.isArray(order.data?.line_items) ? order.data.line_items : [];
}

export function hasPreGeneratedItems(order: OrderRecord): boolean {
  return Array.isArray(order.data?.preGeneratedHPItems) && order.data.preGeneratedHPItems.length > 0;
}

/**
 * The `errorMes` of a failed answer (send-hp, rerun-order, manual send), for the Error Data panel;
 * undefined when the failure carries none.
 */
export function errorDataOf(error: unknown): unknown {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body as { errorMes?: unknown } | undefined;
  const mes = body && typeof body === 'object' ? body.errorMes : undefined;
  return mes === null || mes === undefined || mes === '' ? undefined : mes;
}

/** The `data` of a failed answer: the provider's own answer of a refused manual send. */
export function failureDataOf(error: unknown): unknown {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body as { data?: unknown } | undefined;
  return body && typeof body === 'object' ? (body.data ?? undefined) : undefined;
}

/** Where a line is made, in the operators' words. */
export function madeByLabel(madeBy: MadeBy | null | undefined, printJobId?: Id | null): string {
  const job = printJobId ? ` (job #${printJobId})` : '';
  if (madeBy === 'provider') return `HP Site Flow${job}`;
  if (madeBy === 'inHouse') return `In house, Jobs${job}`;
  return 'Not decided yet';
}

/** A line's print job's preflight, as the order's data.production carries it (absent from older servers). */
export type LinePreflight = Partial<Pick<PreflightState, 'held' | 'preflight'>>;

/** The preflight of the job that prints an order line: data.production[].held / .preflight of that line; {} when not sent. */
export function linePreflightOf(order: OrderRecord, lineId: Id): LinePreflight {
  const production = Array.isArray(order.data?.production) ? (order.data.production as Array<LineProduction & LinePreflight>) : [];
  const made = production.find((p) => String(p.lineId) === String(lineId));
  return made ? { held: made.held, preflight: made.preflight } : {};
}
