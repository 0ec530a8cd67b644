// The API reference (GET /api/openapi.json): generated from the route table, it must cover every
// route, give each one its line, validate as OpenAPI 3.1, and name for each route the very zod
// schemas its handler validates the body and query with.
import { Validator } from '@seriousme/openapi-schema-validator';
import type { ZodType } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes } from '../src/http/openapi';
import { parseWatchers } from '../src/http/validate';
import { bearer, createWorld, type TestWorld } from './harness';

let w: TestWorld;
let doc: { openapi: string; paths: Record<string, Record<string, { summary?: string; description?: string; security?: unknown[]; requestBody?: unknown }>> };

beforeAll(async () => {
  w = await createWorld();
  const res = await w.request().get('/api/openapi.json').set(bearer(w.tokens.userA));
  expect(res.status).toBe(200);
  doc = res.body;
}, 60_000);
afterAll(() => parseWatchers.clear());

const routes = () => documentedRoutes(w.app as never);
const docPath = (p: string) => p.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

describe('GET /api/openapi.json', () => {
  it('is for signed-in users only', async () => {
    expect((await w.request().get('/api/openapi.json')).status).toBe(401);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('validates as an OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('covers every route of the route table, each with its one-line description', () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(100);
    const undescribed = all.filter((r) => !r.access?.doc?.summary).map((r) => `${r.entry.method} ${r.entry.path}`);
    expect(undescribed, 'routes without a description: declare it beside the access, allow.x.describe(...)').toEqual([]);
    const missing = all.filter((r) => !doc.paths[docPath(r.entry.path)]?.[r.entry.method.toLowerCase()]?.summary).map((r) => `${r.entry.method} ${r.entry.path}`);
    expect(missing).toEqual([]);
  });

  it('describes the webhook receivers and postbacks with their signature schemes', () => {
    const shopify = Object.entries(doc.paths).find(([p]) => p.endsWith('/shopify-webhook'))?.[1].post;
    expect(shopify?.description).toContain('X-Shopify-Hmac-Sha256');
    expect(shopify?.description).toContain('base64 of the HMAC-SHA256 of the raw request body');
    expect(shopify?.security).toEqual([{ shopifyHmac: [] }]);
    const hp = doc.paths['/api/online-stores/hp-webhook']?.post;
    expect(hp?.description).toContain('x-postback-token');
    expect(hp?.security).toEqual([{ hpPostbackToken: [] }]);
    expect(doc.paths['/api/sites/{site}/raiser-edge-webhook']?.post?.security).toEqual([{ reWebhookKey: [] }]);
  });

  it('shows a route\'s body as its zod schema says', () => {
    const scan = doc.paths['/api/scan']?.post?.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
    expect(scan.content['application/json'].schema.required).toEqual(['code']);
    expect(Object.keys(scan.content['application/json'].schema.properties)).toEqual(['code']);
  });

  it('gives the routing routes their request and response schemas', () => {
    type Op = { requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema: { $ref?: string; properties?: Record<string, { $ref?: string }> } }> }> };
    const op = (method: string, path: string) => (doc.paths[path] as unknown as Record<string, Op>)[method];
    const dataRef = (o: Op) => o.responses['200'].content?.['application/json'].schema.properties?.data?.$ref;
    expect(dataRef(op('get', '/api/sites/{site}/routing'))).toBe('#/components/schemas/RoutingView');
    expect(dataRef(op('put', '/api/sites/{site}/routing'))).toBe('#/components/schemas/RoutingView');
    expect(dataRef(op('post', '/api/sites/{site}/routing/test'))).toBe('#/components/schemas/RoutingTestResult');
    expect(dataRef(op('post', '/api/sites/{site}/routing/route-now'))).toBe('#/components/schemas/RouteNowResult');
    for (const [method, path] of [['put', '/api/sites/{site}/routing'], ['post', '/api/sites/{site}/routing/test'], ['post', '/api/sites/{site}/routing/route-now']]) expect(op(method, path).requestBody?.content['application/json'].schema, `${method} ${path}`).toBeDefined();
    const components = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } }).components.schemas;
    expect(Object.keys(components.RoutingView.properties)).toEqual(['rules', 'default', 'capacity', 'routedLast30Days', 'saved']);
    expect(Object.keys(components.RoutingTestResult.properties)).toEqual(['lines', 'perDay']);
    const routeNow = JSON.stringify(op('post', '/api/sites/{site}/routing/route-now').requestBody);
    expect(routeNow).toContain('"to"');
  });

  it('names, for each route, the schemas its handler validates the body and query with', async () => {
    const seen = { body: new Set<ZodType>(), query: new Set<ZodType>() };
    const watch = (schema: ZodType, value: unknown) => {
      const probe = value && typeof value === 'object' ? (value as { __probe?: unknown }).__probe : undefined;
      if (probe === 'body' || probe === 'query') seen[probe].add(schema);
    };
    parseWatchers.add(watch);
    const slug = (await w.db('sites').where({ id: w.sites.a }).first()).slug as string;
    const disagreements: string[] = [];
    let checked = 0;
    for (const { entry, access } of routes()) {
      // Sign-out would end the probe's session; a delete has no body to check.
      if (entry.method === 'DELETE' || entry.method === 'OPTIONS' || entry.path.endsWith('/logout')) continue;
      const path = entry.path.replace(/:site\b/g, slug).replace(/[:*]([A-Za-z_]\w*)/g, '999999');
      seen.body.clear();
      seen.query.clear();
      const req = w.request()[entry.method.toLowerCase() as 'get' | 'post' | 'put'](`${path}?__probe=query`).set(bearer(w.tokens.adminA));
      await (entry.method === 'GET' ? req : req.send({ __probe: 'body' }));
      const doc = access?.doc;
      const bodies = doc?.body === undefined ? [] : Array.isArray(doc.body) ? doc.body : [doc.body];
      for (const s of seen.body) if (!bodies.includes(s)) disagreements.push(`${entry.method} ${entry.path}: its handler validates the body with a schema the reference does not name`);
      for (const s of seen.query) if (doc?.query !== s) disagreements.push(`${entry.method} ${entry.path}: its handler validates the query with a schema the reference does not name`);
      checked += seen.body.size + seen.query.size;
    }
    parseWatchers.delete(watch);
    expect(disagreements).toEqual([]);
    // The probe reached the handlers' validation: the check is not vacuous.
    expect(checked).toBeGreaterThan(40);
  }, 120_000);

  it('catches a declared schema that is not the one the handler uses (the check itself)', () => {
    const all = routes();
    const scan = all.find((r) => r.entry.path === '/api/scan' && r.entry.method === 'POST');
    expect(scan?.access?.doc?.body).toBeDefined();
    const other = all.find((r) => r.entry.path === '/api/batches' && r.entry.method === 'POST')?.access?.doc?.body;
    expect(other).toBeDefined();
    expect(other).not.toBe(scan?.access?.doc?.body);
  });
});
