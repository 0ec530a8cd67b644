// Sending one example request of a route as one actor, and the checks every answer must pass.
import type { RouteEntry } from '../../server/src/http/routeTable';
import type { ActorName, SecurityWorld } from './world';

export interface ExampleRequest {
  /** Path parameters by name (`:id`, `*key`). */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON body. */
  body?: unknown;
  /** Raw body (sent as is, with the Content-Type of `headers`). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** A route's example: fixed, or built per actor (throwaway records, the caller's own id). */
export type Example = ExampleRequest | ((c: { world: SecurityWorld; actor: ActorName }) => ExampleRequest | Promise<ExampleRequest>);

export interface Answer {
  method: string;
  url: string;
  status: number;
  text: string;
  contentType: string;
  json: unknown;
}

/** The route's path with its parameters filled in; throws naming a parameter with no example value. */
export function fillPath(routePath: string, params: Record<string, string>): string {
  return routePath.replace(/([:*])(\w+)/g, (_m, kind: string, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`no example value for ${kind}${name} of ${routePath}`);
    return kind === '*' ? v.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(v);
  });
}

export async function send(world: SecurityWorld, route: Pick<RouteEntry, 'method' | 'path'>, ex: ExampleRequest, actor: ActorName, token = world.tokenOf(actor)): Promise<Answer> {
  const url = fillPath(route.path, ex.params ?? {});
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options' | 'head';
  let req = world.request()[method](url);
  if (ex.query) req = req.query(ex.query);
  for (const [k, v] of Object.entries(ex.headers ?? {})) req = req.set(k, v);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  req = req.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  const res = await (ex.raw !== undefined ? req.send(ex.raw) : ex.body !== undefined ? req.send(ex.body as object) : req);
  const buf = Buffer.isBuffer(res.body) ? res.body : Buffer.alloc(0);
  const contentType = String(res.headers['content-type'] ?? '');
  const text = contentType.includes('json') || contentType.startsWith('text/') ? buf.toString('utf8') : buf.toString('latin1');
  let json: unknown;
  if (contentType.includes('json')) {
    try {
      json = JSON.parse(buf.toString('utf8'));
    } catch {
      json = undefined;
    }
  }
  return { method: route.method, url, status: res.status, text, contentType, json };
}

/** A Node stack frame, or a file path of the server, in an answer. */
const STACK = /\n\s+at\s+\S+.*\(?[^\s()]+:\d+:\d+\)?|\bat\s+(async\s+)?[\w.<>]+\s+\([^)]*\.(ts|js|mjs|cjs):\d+:\d+\)|node_modules\/|\/server\/src\//;

/** Checks every answer must pass whoever asks: no 5xx, no stack trace, errors in the spec's envelope. */
export function checkBody(a: Answer): string[] {
  const p: string[] = [];
  if (a.status >= 500) p.push(`answered ${a.status}: ${a.text.slice(0, 200)}`);
  if (STACK.test(a.text)) p.push(`stack trace or server path in the answer: ${a.text.slice(0, 300)}`);
  if (a.status >= 400 && a.method !== 'HEAD') {
    const env = a.json as { success?: unknown; error?: unknown } | undefined;
    if (!env || env.success !== false || typeof env.error !== 'string' || !env.error) p.push(`error ${a.status} without the {success:false, error} envelope: ${a.contentType} ${a.text.slice(0, 200)}`);
  }
  return p;
}
