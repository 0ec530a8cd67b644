import type { Store, StoreAuth } from '../../../../common/api/orders';

/** The value the server shows for a secret that is set; sent back, it means "unchanged". */
export const SECRET_MASK = '********';

export type StoreChanges = Pick<Store, 'shopDomain' | 'webhookSecret' | 'autoSendToHP' | 'sendWhen' | 'adminToken' | 'apiVersion' | 'auth' | 'clientId' | 'clientSecret'> & { previousSecret?: string };

/** How a store is connected, in the business's words (SHOPIFY_AUTH). */
export const AUTH_CHOICES: Array<{ id: StoreAuth; name: string; help: string }> = [
  {
    id: 'client_credentials',
    name: 'An app of our own organisation (recommended)',
    help: 'An app made in Shopify’s Dev Dashboard by the organisation that owns this store. Paste its Client ID and Client secret, save, then Connect: Presswork asks Shopify for a token and renews it by itself.',
  },
  {
    id: 'authorization_code',
    name: 'Install an app on the store (OAuth)',
    help: 'An app of another organisation (an agency’s app installed on a client’s store). Paste its Client ID and Client secret, save, then Install on Shopify: Shopify asks the store’s owner to approve it and sends you back here connected.',
  },
  {
    id: 'static_token',
    name: 'A legacy custom app token',
    help: 'A custom app made in the store’s admin before 2026 (Shopify no longer lets new ones be made): paste its Admin API access token (shpat_…).',
  },
];

export const isAppAuth = (auth: StoreAuth | undefined) => auth === 'client_credentials' || auth === 'authorization_code';

/** The store has what its kind of connection needs to be called (a token, or the app's credentials). */
export const hasConnection = (s: Pick<Store, 'auth' | 'adminToken' | 'clientId' | 'clientSecret'>) => (isAppAuth(s.auth) ? Boolean(s.clientId && s.clientSecret) : Boolean(s.adminToken));

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
    auth: data.auth ?? 'static_token',
    clientId: (data.clientId ?? '').trim(),
    clientSecret: data.clientSecret ?? '',
  };
  const secretChanged = previous !== undefined && body.webhookSecret !== (previous.webhookSecret ?? '');
  if (secretChanged && body.webhookSecret && body.previousSecret === (previous?.previousSecret ?? '')) delete body.previousSecret;
  return body;
}

/** "Disconnected (app uninstalled on DD/MM/YYYY HH:mm)", or undefined while connected. */
export function disconnectedText(store: Pick<Store, 'disconnectedAt'> | undefined, format: (iso: string) => string): string | undefined {
  return store?.disconnectedAt ? `Disconnected (app uninstalled on ${format(store.disconnectedAt)})` : undefined;
}

/** The list's connection column: the kind of connection and whether its credentials are set. */
export function connectionWords(s: Pick<Store, 'auth' | 'adminToken' | 'clientId' | 'clientSecret'>): string {
  if (s.auth === 'client_credentials') return hasConnection(s) ? 'Our own app' : 'Our own app: credentials missing';
  if (s.auth === 'authorization_code') return hasConnection(s) ? 'Installed app (OAuth)' : 'Installed app: credentials missing';
  return s.adminToken ? 'Legacy token set' : 'Not connected';
}
