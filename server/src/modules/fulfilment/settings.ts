// The provider settings of a site (its settings.env; docs/settings.md lists the names).
import { HP_AUTH_SCHEMES, type HpAuthScheme } from '../../integrations/hpSiteflow';
import { envValue, type EnvVar } from '../../lib/secrets';

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

/** The settings, the names of the required ones that are missing, and what is wrong with the others. */
export function hpSettingsOf(env: EnvVar[]): { settings: HpSettings; missing: string[]; invalid: string[] } {
  const v = (k: string) => (envValue(env, k) ?? '').trim();
  const scheme = v('HP_AUTH_SCHEME').toLowerCase() || 'printos';
  const known = (HP_AUTH_SCHEMES as readonly string[]).includes(scheme);
  const pollAfter = v('HP_POLL_AFTER_MINUTES');
  const pollAfterOk = !pollAfter || (/^\d{1,6}$/.test(pollAfter) && Number(pollAfter) >= 5);
  const notUrl = (k: string) => {
    if (!v(k)) return false;
    try {
      return !['http:', 'https:'].includes(new URL(v(k)).protocol);
    } catch {
      return true;
    }
  };
  return {
    settings: {
      baseUrl: v('HP_BASE_URL'),
      submitUrl: v('HP_SUBMIT_URL'),
      scheme: known ? (scheme as HpAuthScheme) : 'printos',
      key: v('HP_API_KEY'),
      secret: v('HP_API_SECRET'),
      sourceAccount: v('HP_SOURCE_ACCOUNT'),
      destination: v('HP_DESTINATION') || 'presswork',
      carrierAlias: v('HP_CARRIER_ALIAS') || 'standard',
      postbackToken: v('HP_POSTBACK_TOKEN'),
      autoSend: ['1', 'true', 'yes', 'on'].includes(v('HP_AUTO_SEND').toLowerCase()),
      pollAfterMinutes: pollAfter ? Number(pollAfter) : undefined,
    },
    missing: HP_REQUIRED.filter((k) => !v(k)),
    invalid: [
      ...(known ? [] : [`HP_AUTH_SCHEME must be ${HP_AUTH_SCHEMES.join(' or ')} (it is "${v('HP_AUTH_SCHEME')}")`]),
      ...(pollAfterOk ? [] : [`HP_POLL_AFTER_MINUTES must be a whole number of minutes, 5 or more (it is "${pollAfter}")`]),
      ...['HP_BASE_URL', 'HP_SUBMIT_URL'].filter(notUrl).map((k) => `${k} must be an http(s) URL (it is "${v(k)}")`),
    ],
  };
}
