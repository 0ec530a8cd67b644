// Owns the header search across orders, jobs, designs, sites and users.
export { searchRepo } from './repo';
export { searchRoutes } from './routes';
export { checkOrderLink, searchService } from './service';
