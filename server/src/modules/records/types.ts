// The record types of the spec's generic API, named once. Orders, provider events and provider
// sends live in tables of their own (modules/orders); the rest are rows of general_data.

export const RECORD_TYPES = {
  /** A store order (orders table; the API shows it as a general-data record). */
  order: 'shopify-order-log',
  /** A provider postback (provider_events table). */
  providerEvent: 'hp-log',
  /** A send to the provider and its answer (provider_sends table). */
  providerSend: 'shopify-hp-log',
  /** A store SKU → design mapping. */
  product: 'product',
  productionNote: 'production-note',
  reseller: 'reseller',
  instance: 'instance',
  syncRun: 're-sync',
  unsubscribeFile: 'adestra-unsubscribe-sync-file',
  export80File: 'adestra-export80-sync-file',
  export92File: 'adestra-export92-sync-file',
} as const;

/** The record name every order carries (`name` of a shopify-order-log record). */
export const ORDER_RECORD_NAME = 'order-log';

/** Types kept in the order tables, not in general_data. */
export const ORDER_TABLE_TYPES: readonly string[] = [RECORD_TYPES.order, RECORD_TYPES.providerEvent, RECORD_TYPES.providerSend];

export const isOrderTableType = (type: string | undefined): boolean => type !== undefined && ORDER_TABLE_TYPES.includes(type);

/** Types written by Presswork itself (webhooks, provider events, sync runs): only an admin may write them by hand. */
export const SYSTEM_TYPES: ReadonlySet<string> = new Set([
  RECORD_TYPES.order,
  RECORD_TYPES.providerEvent,
  RECORD_TYPES.providerSend,
  RECORD_TYPES.syncRun,
  RECORD_TYPES.unsubscribeFile,
  RECORD_TYPES.export80File,
  RECORD_TYPES.export92File,
]);
