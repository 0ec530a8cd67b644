// Owns the demo store: fake store orders for trying Presswork without a shop.
export { demoStoreRoutes } from './routes';
export { demoStoreService } from './service';
