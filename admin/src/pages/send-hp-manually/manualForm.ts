import type { Id } from '../../../../common/api/envelope';
import type { ManualSubmission } from '../../../../common/api/orders';
// The manual provider form (spec §2, §3, §5): free text everywhere, quantity made a number.

export const DEFAULT_ISO_COUNTRY = 'gb';

export interface ManualItemRow {
  /** Local key of the row (rows are added and deleted). */
  key: number;
  sku: string;
  quantity: string;
  pdfUrl: string;
  sourceItemId: string;
}

export interface ManualForm {
  orderData: { sourceOrderId: string; customerName: string };
  items: ManualItemRow[];
  shipTo: ManualSubmission['shipTo'];
}

let nextKey = 1;

export function emptyItem(): ManualItemRow {
  return { key: nextKey++, sku: '', quantity: '1', pdfUrl: '', sourceItemId: '' };
}

export function initialForm(): ManualForm {
  return {
    orderData: { sourceOrderId: '', customerName: '' },
    items: [emptyItem()],
    shipTo: { name: '', address1: '', address2: '', town: '', isoCountry: DEFAULT_ISO_COUNTRY, postcode: '' },
  };
}

/** Empty or unreadable quantities are sent as 0: the spec's form has no validation. */
function toQuantity(text: string): number {
  const n = Number(text.trim());
  return Number.isFinite(n) ? n : 0;
}

export function toSubmission(form: ManualForm, siteId?: Id): ManualSubmission {
  return {
    orderData: { ...form.orderData },
    items: form.items.map(({ sku, quantity, pdfUrl, sourceItemId }) => ({ sku, quantity: toQuantity(quantity), pdfUrl, sourceItemId })),
    shipTo: { ...form.shipTo },
    ...(siteId !== undefined && siteId !== '' ? { siteId } : {}),
  };
}
