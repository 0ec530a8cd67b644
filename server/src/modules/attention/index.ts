// Owns Needs attention: late, at-risk, held and stuck orders and failed sends, worst first.
export { attentionRoutes } from './routes';
export { attentionService } from './service';
