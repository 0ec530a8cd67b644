// Owns GET /metrics, the Prometheus text of this instance.
export { metricsRoutes } from './routes';
