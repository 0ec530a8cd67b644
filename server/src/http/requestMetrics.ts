// Times every request of the app into the metrics, labelled by the route pattern it matched
// (`/api/print-jobs/:id`, never the raw URL: ids would make a series each) or `unmatched`.
import type { RequestHandler } from 'express';
import type { Metrics } from '../lib/metrics';
import { routePatterns } from './routeTable';

export function requestMetrics(app: { router: { stack: unknown[] } }, metrics: Metrics): RequestHandler {
  // Read from the route table on first use (every route is declared by then), and again for a route
  // object it did not know (a route added later).
  let patterns: WeakMap<object, string> | undefined;
  const patternOf = (route: object): string => {
    let pattern = patterns?.get(route);
    if (pattern === undefined) {
      patterns = routePatterns(app);
      pattern = patterns.get(route);
      if (pattern === undefined) patterns.set(route, (pattern = 'unmatched'));
    }
    return pattern;
  };
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = req.route as object | undefined;
      metrics.httpRequest(req.method, route ? patternOf(route) : 'unmatched', res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
