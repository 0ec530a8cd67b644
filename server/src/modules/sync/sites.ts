// Which site a sync call is about: by slug or id, with the CRM sync configured.
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isAdmin } from '../auth';
import { seesSite } from '../auth';
import { envValue } from '../../lib/secrets';
import type { Site, SitesRepo } from '../sites';
import { hasSync, syncSettingsOf, type SiteSync } from './siteSettings';

/** The reads of sites a sync needs. */
export type SiteReader = Pick<SitesRepo, 'byId' | 'bySlug' | 'list'>;
type SiteDeps = Pick<Deps, 'config'> & { sites: SiteReader };

async function findSite({ sites }: SiteDeps, param: string): Promise<Site | undefined> {
  const bySlug = await sites.bySlug(param);
  if (bySlug) return bySlug;
  return /^[1-9]\d{0,9}$/.test(param) ? sites.byId(Number(param)) : undefined;
}

/** The site of a sync call: admins any, users their own (another site is not found), and it must have the sync. */
export async function siteFor(ctx: SiteDeps, actor: Actor, param: string): Promise<SiteSync> {
  const site = await findSite(ctx, param);
  if (!site || (!isAdmin(actor) && site.id !== actor.siteId)) throw notFound('Site not found');
  if (!hasSync(site)) throw notFound('This site has no CRM sync');
  return syncSettingsOf(site, ctx.config);
}

/** The site of a CRM webhook: no actor, the webhookKey is checked by the caller. */
export async function siteForWebhook(ctx: SiteDeps, param: string): Promise<SiteSync> {
  const site = await findSite(ctx, param);
  if (!site) throw notFound('Site not found');
  if (!hasSync(site)) throw notFound('This site has no CRM sync');
  return syncSettingsOf(site, ctx.config);
}

/** Every site with the CRM sync configured. */
export async function syncSites({ sites, config }: SiteDeps): Promise<SiteSync[]> {
  const { rows } = await sites.list({}, { field: 'id', order: 'asc' }, 10_000, 0);
  return rows.filter(hasSync).map((s) => syncSettingsOf(s, config));
}

/**
 * The site of an e-mail check, which needs no CRM sync: the one named (any the caller may see),
 * else the caller's own, else the first with its own mail server; undefined when none has one.
 */
export async function mailSiteFor(ctx: SiteDeps, actor: Actor, param: string | undefined): Promise<Site | undefined> {
  if (param) {
    const site = await findSite(ctx, param);
    if (!site || !seesSite(actor, site.id)) throw notFound('Site not found');
    return site;
  }
  const own = actor.siteId ? await ctx.sites.byId(actor.siteId) : undefined;
  if (own) return own;
  const { rows } = await ctx.sites.list({}, { field: 'id', order: 'asc' }, 10_000, 0);
  return rows.find((s) => Boolean(envValue(s.settings.env, 'SMTP_URL')?.trim()));
}
