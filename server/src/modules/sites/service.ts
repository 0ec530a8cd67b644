// Sites (tenants): white-label settings, per-site integration settings, admin-only administration.
import type { Deps } from '../../deps';
import { conflict, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { envValue, maskEnv, mergeMaskedEnv, type EnvVar } from '../../lib/secrets';
import { assertAdmin, isAdmin } from '../auth';
import { sitesRepo, type Site, type SiteSortField } from './repo';
import { DEFAULT_MAIN_COLOR, type SiteInput } from './schema';
import { fieldError } from '../../http/fieldErrors';
import { envReader, settingsProblems, siteSettings } from '../../../../common/siteSettings';
import type { SiteInfo } from '../../../../common/api/sites';

/** What any visitor may know of a site: enough to brand the sign-in page. */
export type { SiteInfo };

export const siteInfo = (s: Site): SiteInfo => ({
  id: s.id,
  name: s.name,
  slug: s.slug,
  logo: s.logo,
  theme: { mainColor: s.theme.mainColor || DEFAULT_MAIN_COLOR },
  // The CRM ↔ email-platform sync screens exist for a site that has both connections configured.
  features: { sync: Boolean(siteSettings(s).RE_BASE_URL && siteSettings(s).ADESTRA_BASE_URL) },
});

/** A site as the admin screens see it: secrets masked. */
export const maskedSite = (s: Site) => ({
  id: s.id,
  name: s.name,
  slug: s.slug,
  logo: s.logo,
  theme: { ...s.theme, mainColor: s.theme.mainColor || DEFAULT_MAIN_COLOR },
  settings: { ...s.settings, env: maskEnv(s.settings.env) },
  createdAt: s.createdAt,
});

export type MaskedSite = ReturnType<typeof maskedSite>;

export interface SitesHooks {
  /** Refuses settings.env values another module owns and cannot accept (e.g. CRM consent names the CRM does not list). */
  checkSettings?: (site: Site | undefined, env: EnvVar[], previous: EnvVar[]) => Promise<void>;
}

export function sitesService({ db, clock, config }: Deps, hooks: SitesHooks = {}) {
  const repo = sitesRepo(db);

  async function get(actor: Actor, id: number): Promise<MaskedSite | SiteInfo> {
    const site = await repo.byId(id);
    if (!site || (!isAdmin(actor) && site.id !== actor.siteId)) throw notFound('Site not found');
    return isAdmin(actor) ? maskedSite(site) : siteInfo(site);
  }

  /** The site whose look the app takes: the one asked for by slug, else the user's, else the default. */
  async function info(slug: string | undefined, actor: Actor | undefined): Promise<SiteInfo> {
    let site: Site | undefined;
    if (slug) {
      site = await repo.bySlug(slug);
      if (!site) throw notFound('Site not found');
    } else if (actor) site = await repo.byId(actor.siteId);
    if (!site && config.defaultSite) site = await repo.bySlug(config.defaultSite);
    site ??= await repo.first();
    if (!site) throw notFound('No site is set up yet');
    return siteInfo(site);
  }

  async function list(actor: Actor, filter: { ids?: number[]; q?: string }, sort: { field: SiteSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
    assertAdmin(actor, 'Only an admin can list sites');
    const { rows, total } = await repo.list(filter, sort, limit, offset);
    return { rows: rows.map(maskedSite), total };
  }

  async function upsert(actor: Actor, input: SiteInput): Promise<MaskedSite> {
    assertAdmin(actor, 'Only an admin can change sites');
    const existing = input.id ? await repo.byId(input.id) : undefined;
    if (input.id && !existing) throw notFound('Site not found');
    const sameSlug = await repo.bySlug(input.slug);
    if (sameSlug && sameSlug.id !== existing?.id) throw fieldError('slug', 'Another site already uses this slug.', 409);
    const { env, unknownMasked } = mergeMaskedEnv(input.settings?.env ?? existing?.settings.env ?? [], existing?.settings.env ?? []);
    if (unknownMasked.length) throw fieldError('settings.env', `Enter a real value for ${unknownMasked.join(', ')}.`);
    // Each value as the settings registry defines it, naming the key; nothing is written when one is wrong.
    const problems = settingsProblems(envReader(env), envReader(existing?.settings.env ?? []));
    if (problems.length) throw fieldError('settings.env', problems.length === 1 ? problems[0] : problems.map((p) => (/[.!?)]$/.test(p) ? p : `${p}.`)).join(' '));
    await hooks.checkSettings?.(existing, env, existing?.settings.env ?? []);
    // A value the admin left as it was is read again now: the check above, or a sync run meanwhile,
    // may have rotated the CRM's refresh token, and writing the old one back would revoke access.
    const fresh = existing ? ((await repo.byId(existing.id))?.settings.env ?? []) : [];
    const toWrite = env.map((v) => (envValue(existing?.settings.env ?? [], v.key) === v.value && envValue(fresh, v.key) !== undefined ? { ...v, value: envValue(fresh, v.key)! } : v));
    const now = isoNow(clock);
    const site = {
      name: input.name,
      slug: input.slug,
      logo: input.logo === undefined ? (existing?.logo ?? null) : input.logo || null,
      theme: { ...existing?.theme, ...input.theme, mainColor: input.theme?.mainColor || existing?.theme.mainColor || DEFAULT_MAIN_COLOR },
      settings: { ...existing?.settings, ...input.settings, env: toWrite },
      updatedAt: now,
    };
    const id = existing ? (await repo.update(existing.id, site), existing.id) : await repo.insert({ ...site, createdAt: now });
    return maskedSite((await repo.byId(id))!);
  }

  async function remove(actor: Actor, id: number): Promise<MaskedSite> {
    assertAdmin(actor, 'Only an admin can delete sites');
    const site = await repo.byId(id);
    if (!site) throw notFound('Site not found');
    const { users, records } = await repo.dependents(id);
    if (users || records) throw conflict(`This site still has ${users} users and ${records} records; move or delete them first`);
    await repo.delete(id);
    return maskedSite(site);
  }

  return { get, info, list, upsert, remove, repo };
}

export type SitesService = ReturnType<typeof sitesService>;
