// Owns the demo mail catcher: e-mails caught instead of sent outside production.
export { mailCatcherRoutes } from './routes';
export { mailCatcherService } from './service';
