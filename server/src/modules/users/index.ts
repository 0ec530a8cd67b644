// Owns users and their access to sites.
export { nameOf } from './name';
export { type SortField } from './repo';
export { usersRoutes } from './routes';
export { registerBody, role, upsertBody } from './schema';
export { type PublicUser, usersService, type UsersService } from './service';
export { findUser } from './queries';
