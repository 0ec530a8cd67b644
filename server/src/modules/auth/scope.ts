// Tenancy, written once. An admin sees every site (or the one asked for); anyone else sees their
// own site, and another site's records do not exist for them: 404, never a hint that they exist.
import { notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isAdmin } from './permissions';

/** May this caller see records of this site? */
export const seesSite = (actor: Actor, siteId: number | null | undefined): boolean => isAdmin(actor) || siteId === actor.siteId;

/**
 * The site a list or search of this caller covers: an admin the one asked for (undefined: all
 * sites), anyone else their own. A non-admin naming another site gets 404.
 */
export function siteScope(actor: Actor, asked?: number, what = 'Site not found'): number | undefined {
  if (isAdmin(actor)) return asked;
  if (asked !== undefined && asked !== actor.siteId) throw notFound(what);
  return actor.siteId;
}

/** The record, when the caller may see its site; otherwise 404 with `what`. */
export function visibleTo<T extends { siteId?: number | null } | { clientId?: number | null }>(actor: Actor, record: T | undefined, what = 'Not found'): T {
  if (!record) throw notFound(what);
  const siteId = 'clientId' in record ? record.clientId : (record as { siteId?: number | null }).siteId;
  if (!seesSite(actor, siteId)) throw notFound(what);
  return record;
}

/** A record of a site or shared by the whole instance (siteId null): shared ones everyone sees. */
export const seesSiteOrShared = (actor: Actor, siteId: number | null): boolean => siteId === null || seesSite(actor, siteId);

/** Who may change a site's or a shared record: the site's own staff and admins; a shared one, admins only. */
export const managesSiteOrShared = (actor: Actor, siteId: number | null): boolean => (siteId === null ? isAdmin(actor) : seesSite(actor, siteId));
