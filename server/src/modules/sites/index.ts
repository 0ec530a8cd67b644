// Owns sites (tenants): their settings, theme and store links.
export { type Site, type SiteSortField, type SitesRepo } from './repo';
export { sitesRoutes } from './routes';
export { siteBody } from './schema';
export { type MaskedSite, type SiteInfo, sitesService, type SitesService } from './service';
export { findSite, siteExists, findSiteBySlug, listSites, updateSite } from './queries';
