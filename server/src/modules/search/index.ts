// Owns the header search across orders, jobs, designs, sites and users.
export { searchRoutes } from './routes';
export { checkOrderLink, searchService } from './service';
export { siteNames } from './queries';
