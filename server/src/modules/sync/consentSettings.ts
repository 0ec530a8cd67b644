// The consent source and category the sync writes into the CRM (RE_CONSENT_SOURCE,
// RE_CONSENT_CATEGORY): the CRM accepts only names from the organisation's own lists, so a value
// is checked against those lists when it is saved — an unknown one, or a CRM that cannot be asked,
// refuses the save with the CRM's own answer rather than failing every sync later.
import { IntegrationError } from '../../integrations/crmHttp';
import { envValue, type EnvVar } from '../../lib/secrets';
import type { Site } from '../sites';
import type { SyncContext } from './context';
import { hasSync, syncSettingsOf, type SiteSync } from './siteSettings';
import { fieldError } from '../../http/fieldErrors';
import type { ConsentOptions } from '../../../../common/api/sync';

export const CONSENT_KEYS = { source: 'RE_CONSENT_SOURCE', category: 'RE_CONSENT_CATEGORY' } as const;

export type { ConsentOptions };

/** The CRM's lists and the site's current choice. */
export async function consentOptions(ctx: Pick<SyncContext, 'clients'>, s: SiteSync): Promise<ConsentOptions> {
  const re = ctx.clients.raisersEdge(s);
  const [sources, categories] = await Promise.all([re.consentSources(), re.consentCategories()]);
  return { sources, categories, source: s.re.consentSource, category: s.re.consentCategory };
}

const quoteList = (names: string[]) => (names.length ? names.map((n) => `"${n}"`).join(', ') : 'none');

/**
 * Refuse a settings.env whose consent source or category changed to a name the CRM does not list.
 * Unchanged or emptied values are not checked (nothing new is asked of the CRM).
 */
export async function checkConsentSettings(ctx: Pick<SyncContext, 'clients' | 'config'>, site: Site | undefined, env: EnvVar[], previous: EnvVar[]): Promise<void> {
  const wanted = (key: string) => (envValue(env, key) ?? '').trim();
  const changed = Object.values(CONSENT_KEYS).filter((key) => wanted(key) && wanted(key) !== (envValue(previous, key) ?? '').trim());
  if (!changed.length) return;
  const candidate = site ? { ...site, settings: { ...site.settings, env } } : undefined;
  if (!candidate || !hasSync(candidate)) throw fieldError('settings.env', `${changed.join(' and ')}: save the site with its Raiser's Edge settings and connect it first, then choose from the CRM's own lists.`);
  const s = syncSettingsOf(candidate, ctx.config);
  let options: ConsentOptions;
  try {
    options = await consentOptions(ctx, s);
  } catch (err) {
    if (err instanceof IntegrationError) {
      throw new IntegrationError(err.service, err.kind, `${changed.join(', ')} not saved: the CRM's lists could not be read to check them — ${err.message}`, err.info);
    }
    throw err;
  }
  if (changed.includes(CONSENT_KEYS.source) && !options.sources.includes(wanted(CONSENT_KEYS.source))) {
    throw fieldError('settings.env', `RE_CONSENT_SOURCE: "${wanted(CONSENT_KEYS.source)}" is not one of the CRM's consent sources (${quoteList(options.sources)}).`);
  }
  if (changed.includes(CONSENT_KEYS.category) && !options.categories.includes(wanted(CONSENT_KEYS.category))) {
    throw fieldError('settings.env', `RE_CONSENT_CATEGORY: "${wanted(CONSENT_KEYS.category)}" is not one of the CRM's consent categories (${quoteList(options.categories)}).`);
  }
}

/** The CRM's own type tables a buyer's constituent, e-mail, address and note are written with. */
const TYPE_KEYS = [
  { key: 'RE_EMAIL_TYPE', what: 'e-mail address types', list: (re: ReturnType<SyncContext['clients']['raisersEdge']>) => re.emailAddressTypes() },
  { key: 'RE_ADDRESS_TYPE', what: 'address types', list: (re: ReturnType<SyncContext['clients']['raisersEdge']>) => re.addressTypes() },
  { key: 'RE_NOTE_TYPE', what: 'note types', list: (re: ReturnType<SyncContext['clients']['raisersEdge']>) => re.noteTypes() },
] as const;

/**
 * Refuse a settings.env whose CRM type names (RE_EMAIL_TYPE, RE_ADDRESS_TYPE, RE_NOTE_TYPE) changed to
 * a name the CRM's tables do not list: every buyer added to the CRM would fail on it otherwise.
 */
export async function checkTypeSettings(ctx: Pick<SyncContext, 'clients' | 'config'>, site: Site | undefined, env: EnvVar[], previous: EnvVar[]): Promise<void> {
  const wanted = (key: string) => (envValue(env, key) ?? '').trim();
  const changed = TYPE_KEYS.filter((t) => wanted(t.key) && wanted(t.key) !== (envValue(previous, t.key) ?? '').trim());
  if (!changed.length) return;
  const names = changed.map((t) => t.key).join(' and ');
  const candidate = site ? { ...site, settings: { ...site.settings, env } } : undefined;
  if (!candidate || !hasSync(candidate)) throw fieldError('settings.env', `${names}: save the site with its Raiser's Edge settings and connect it first, then choose from the CRM's own lists.`);
  const re = ctx.clients.raisersEdge(syncSettingsOf(candidate, ctx.config));
  for (const t of changed) {
    let listed: string[];
    try {
      listed = await t.list(re);
    } catch (err) {
      if (err instanceof IntegrationError) throw new IntegrationError(err.service, err.kind, `${t.key} not saved: the CRM's ${t.what} could not be read to check it — ${err.message}`, err.info);
      throw err;
    }
    if (!listed.includes(wanted(t.key))) throw fieldError('settings.env', `${t.key}: "${wanted(t.key)}" is not one of the CRM's ${t.what} (${quoteList(listed)}).`);
  }
}
