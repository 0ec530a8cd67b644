// The route table of a built Express app: every (method, full path) with the handlers of its route.
// Read from Express 5's router stacks, so it is the truth of what the app answers — the security
// suite generates its authorization matrix and its fuzzing from it.
import type { RequestHandler } from 'express';

export interface RouteEntry {
  method: string; // GET, POST, PUT, PATCH, DELETE
  path: string; // full path as declared, e.g. /api/print-jobs/:id
  handlers: RequestHandler[]; // the route's own handlers, in order (not router-level `use` middleware)
  /** Router-level middleware (`router.use(fn)` with no path) that runs before this route, outermost first. */
  middleware: RequestHandler[];
  /** Express's route object (what `req.route` is while the route answers). */
  route: object;
}

interface LayerLike {
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: Array<{ handle: RequestHandler; method?: string }> };
  handle: RequestHandler & { stack?: LayerLike[] };
  rawPath?: string | string[];
  slash?: boolean;
}

const join = (prefix: string, p: string) => {
  const joined = `${prefix}/${p}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
};

function walk(stack: LayerLike[], prefix: string, inherited: RequestHandler[], out: RouteEntry[]): void {
  const middleware = [...inherited];
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const method of Object.keys(layer.route.methods)) {
        if (method === '_all') continue;
        const handlers = layer.route.stack.filter((l) => !l.method || l.method === method).map((l) => l.handle);
        for (const p of paths) out.push({ method: method.toUpperCase(), path: join(prefix, p), handlers, middleware: [...middleware], route: layer.route });
      }
      continue;
    }
    const raw = layer.rawPath ?? '/';
    const mounts = Array.isArray(raw) ? raw : [raw];
    if (Array.isArray(layer.handle.stack)) {
      for (const m of mounts) walk(layer.handle.stack, layer.slash ? prefix : join(prefix, String(m)), middleware, out);
    } else if (layer.slash || mounts.every((m) => m === '/')) {
      // `router.use(fn)` without a path: runs before every later route of this router.
      middleware.push(layer.handle);
    }
  }
}

/** Every route the app answers (API and files; the UI's catch-all included), in registration order. */
export function routeTable(app: { router: { stack: unknown[] } }): RouteEntry[] {
  const out: RouteEntry[] = [];
  walk(app.router.stack as LayerLike[], '', [], out);
  return out;
}

/**
 * Each route object's full path pattern (`/api/print-jobs/:id`), for `req.route` → a label that
 * never holds an id. A route declared with several paths is named by all of them (`/a|/b`).
 */
export function routePatterns(app: { router: { stack: unknown[] } }): WeakMap<object, string> {
  const paths = new Map<object, Set<string>>();
  for (const e of routeTable(app)) paths.set(e.route, (paths.get(e.route) ?? new Set()).add(e.path));
  const out = new WeakMap<object, string>();
  for (const [route, set] of paths) out.set(route, [...set].join('|'));
  return out;
}
