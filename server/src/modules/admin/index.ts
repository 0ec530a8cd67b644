// Owns the react-admin REST surface (/api/admin/<resource>) over the other modules' services.
export { adminRoutes } from './routes';
export { ordersAdminRoutes } from './orderResources';
