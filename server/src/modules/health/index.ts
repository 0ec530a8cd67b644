// Owns liveness and readiness (GET /api/health, /api/health/ready).
export { healthRoutes } from './routes';
export { healthService } from './service';
