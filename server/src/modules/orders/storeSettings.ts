// A site's store connection settings checked when the site is saved (Sites or Stores screen).
import { fieldError } from '../../http/fieldErrors';
import { SHOPIFY_AUTHS, isShopifyAuth } from '../../integrations/shopifyAdmin';
import { envValue, type EnvVar } from '../../lib/secrets';
import { STORE_KEYS } from './webhookSites';

/** Refuses a SHOPIFY_AUTH that names no way of connecting (unset is fine: it is worked out from what is set). */
export function checkStoreSettings(env: EnvVar[]): void {
  const auth = envValue(env, STORE_KEYS.auth)?.trim();
  if (auth && !isShopifyAuth(auth.toLowerCase())) throw fieldError('settings.env', `${STORE_KEYS.auth} must be one of ${SHOPIFY_AUTHS.join(', ')} (it is "${auth.slice(0, 40)}")`);
}
