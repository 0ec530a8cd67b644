// What other modules may read or change of sites, by name; the repo stays inside.
import { sitesRepo } from './repo';

type Repo = ReturnType<typeof sitesRepo>;
type Conn = Parameters<typeof sitesRepo>[0];

export const findSite = (db: Conn, ...args: Parameters<Repo['byId']>): ReturnType<Repo['byId']> => sitesRepo(db).byId(...args);
export const siteExists = (db: Conn, ...args: Parameters<Repo['exists']>): ReturnType<Repo['exists']> => sitesRepo(db).exists(...args);
export const findSiteBySlug = (db: Conn, ...args: Parameters<Repo['bySlug']>): ReturnType<Repo['bySlug']> => sitesRepo(db).bySlug(...args);
export const listSites = (db: Conn, ...args: Parameters<Repo['list']>): ReturnType<Repo['list']> => sitesRepo(db).list(...args);
export const updateSite = (db: Conn, ...args: Parameters<Repo['update']>): ReturnType<Repo['update']> => sitesRepo(db).update(...args);
