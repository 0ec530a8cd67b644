// The provider settings of a site, as the provider client takes them (read through the settings
// registry; docs/settings.md lists the names).
import type { HpAuthScheme } from '../../integrations/hpSiteflow';
import type { EnvVar } from '../../lib/secrets';
import { envReader, settingProblem, siteSettings } from '../../../../common/siteSettings';
import { autoSendOf } from '../orders';

export interface HpSettings {
  baseUrl: string;
  /** The order-submission host; empty = baseUrl. */
  submitUrl: string;
  scheme: HpAuthScheme;
  key: string;
  secret: string;
  /** The account name in cancel paths. */
  sourceAccount: string;
  destination: string;
  carrierAlias: string;
  postbackToken: string;
  autoSend: boolean;
  /** HP_POLL_AFTER_MINUTES: an order with no provider news for this long is asked about (undefined: the app's default). */
  pollAfterMinutes: number | undefined;
}

export const HP_REQUIRED = ['HP_BASE_URL', 'HP_API_KEY', 'HP_API_SECRET'] as const;

const PROVIDER_KEYS = ['HP_AUTH_SCHEME', 'HP_POLL_AFTER_MINUTES', 'HP_BASE_URL', 'HP_SUBMIT_URL'] as const;

/** The settings (typed by the settings registry), the names of the required ones that are missing, and what is wrong with the others. */
export function hpSettingsOf(env: EnvVar[]): { settings: HpSettings; missing: string[]; invalid: string[] } {
  const s = siteSettings({ settings: { env } });
  const read = envReader(env);
  return {
    settings: {
      baseUrl: s.HP_BASE_URL,
      submitUrl: s.HP_SUBMIT_URL,
      scheme: s.HP_AUTH_SCHEME ?? 'printos',
      key: s.HP_API_KEY,
      secret: s.HP_API_SECRET,
      sourceAccount: s.HP_SOURCE_ACCOUNT,
      destination: s.HP_DESTINATION || 'presswork',
      carrierAlias: s.HP_CARRIER_ALIAS || 'standard',
      postbackToken: s.HP_POSTBACK_TOKEN,
      autoSend: autoSendOf(env),
      pollAfterMinutes: s.HP_POLL_AFTER_MINUTES ?? undefined,
    },
    missing: HP_REQUIRED.filter((k) => !s[k]),
    // A value saved before the registry checked it is reported here, where it stops a send.
    invalid: PROVIDER_KEYS.map((k) => settingProblem(k, read(k))).filter((p): p is string => p !== undefined),
  };
}
