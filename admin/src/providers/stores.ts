// A store's connection through a Shopify app (docs/connect-shopify.md): Connect, Install on Shopify,
// the connection's state, and the privacy requests Shopify sent. The records are in common/api.
import type { StoreConnectResult, StoreConnection, StoreInstallStart, StorePrivacyRequest } from '../../../common/api/orders';
import { api } from './api';

export const storeCalls = {
  /** Connect: a token now by the store's grant; the shop's name, its scopes and when the token ends. */
  connectStore(site: string): Promise<StoreConnectResult> {
    return api<StoreConnectResult>('/api/online-stores/connect', { method: 'POST', body: { site } });
  },

  /** How the store is connected and whether it works (no call to Shopify). */
  getStoreConnection(site: string): Promise<StoreConnection> {
    return api<StoreConnection>(`/api/online-stores/connection?site=${encodeURIComponent(site)}`);
  },

  /** Install on Shopify: the consent screen's address (the browser is sent there). */
  storeInstallUrl(site: string): Promise<StoreInstallStart> {
    return api<StoreInstallStart>('/api/online-stores/shopify/install-url', { method: 'POST', body: { site } });
  },

  /** Shopify's privacy requests for the store, newest first. */
  getStorePrivacyRequests(site: string): Promise<StorePrivacyRequest[]> {
    return api<StorePrivacyRequest[]>(`/api/online-stores/privacy-requests?site=${encodeURIComponent(site)}`);
  },
};
