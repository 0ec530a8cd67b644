import type { Store } from '../../../../common/api/orders';

/** The value the server shows for a secret that is set; sent back, it means "unchanged". */
export const SECRET_MASK = '********';

export type StoreChanges = Pick<Store, 'shopDomain' | 'webhookSecret' | 'autoSendToHP' | 'sendWhen' | 'adminToken' | 'apiVersion'> & { previousSecret?: string };

/**
 * The body of a store save: only the store's own fields. A new webhook secret with the previous
 * secret left as it was lets the server rotate (the old secret becomes the previous one), so
 * webhooks Shopify still signs with it keep being accepted.
 */
export function storeChanges(data: Partial<Store>, previous?: Partial<Store>): StoreChanges {
  const body: StoreChanges = {
    shopDomain: (data.shopDomain ?? '').trim(),
    webhookSecret: data.webhookSecret ?? '',
    previousSecret: data.previousSecret ?? '',
    autoSendToHP: Boolean(data.autoSendToHP),
    sendWhen: data.sendWhen === 'created' ? 'created' : 'paid',
    // Masked means unchanged, as for the webhook secret.
    adminToken: data.adminToken ?? '',
    apiVersion: (data.apiVersion ?? '').trim(),
  };
  const secretChanged = previous !== undefined && body.webhookSecret !== (previous.webhookSecret ?? '');
  if (secretChanged && body.webhookSecret && body.previousSecret === (previous?.previousSecret ?? '')) delete body.previousSecret;
  return body;
}

/** "Disconnected (app uninstalled on DD/MM/YYYY HH:mm)", or undefined while connected. */
export function disconnectedText(store: Pick<Store, 'disconnectedAt'> | undefined, format: (iso: string) => string): string | undefined {
  return store?.disconnectedAt ? `Disconnected (app uninstalled on ${format(store.disconnectedAt)})` : undefined;
}
