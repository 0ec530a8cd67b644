// The provider settings of a site (its settings.env; names per INTEGRATIONS.md).
import { envValue, type EnvVar } from '../../lib/secrets';

export interface HpSettings {
  baseUrl: string;
  key: string;
  secret: string;
  destination: string;
  carrierAlias: string;
  postbackToken: string;
  autoSend: boolean;
  /** HP_SOURCE_ACCOUNT: the account name in cancel paths (PUT /api/order/{sourceAccount}/{sourceOrderId}/cancel). */
  sourceAccount: string;
}

export const HP_REQUIRED = ['HP_BASE_URL', 'HP_API_KEY', 'HP_API_SECRET'] as const;

/** The settings, or the names of the required ones that are missing. */
export function hpSettingsOf(env: EnvVar[]): { settings: HpSettings; missing: string[] } {
  const v = (k: string) => (envValue(env, k) ?? '').trim();
  return {
    settings: {
      baseUrl: v('HP_BASE_URL'),
      key: v('HP_API_KEY'),
      secret: v('HP_API_SECRET'),
      destination: v('HP_DESTINATION') || 'presswork',
      carrierAlias: v('HP_CARRIER_ALIAS') || 'standard',
      postbackToken: v('HP_POSTBACK_TOKEN'),
      autoSend: ['1', 'true', 'yes', 'on'].includes(v('HP_AUTO_SEND').toLowerCase()),
      sourceAccount: v('HP_SOURCE_ACCOUNT'),
    },
    missing: HP_REQUIRED.filter((k) => !v(k)),
  };
}
