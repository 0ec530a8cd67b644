// The API reference: an OpenAPI 3.1 document built from the app's own route table and, per route,
// the description and zod schemas declared beside its access (allow.*.describe), so it lists every
// route the app answers and the bodies and queries they validate — never a hand-written copy.
// zod-openapi turns the zod schemas into JSON Schema (zod 4's own converter underneath).
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import pkg from '../../../package.json';
import { accessOf, type Access, type AccessHandler } from './access';
import { routeTable, type RouteEntry } from './routeTable';

/** Who may call a route, as the reference says it. */
const WHO: Record<Access, string> = {
  public: 'Anyone; no sign-in.',
  credential: 'No session: the caller proves itself another way (below).',
  signedIn: 'Any signed-in user, acting on their own account.',
  ownSite: "Any signed-in user; acts on the caller's own site's records (admins: every site's).",
  site: "The named record's own site's users, and admins; another site's record is not found.",
  admin: 'Admins only.',
};

/**
 * How each caller without a session proves itself, keyed by a fragment of the route's path.
 * These are the signature schemes of the receivers and callbacks (docs/connect-*.md).
 */
const CREDENTIALS: Array<{ path: RegExp; scheme: string; how: string }> = [
  {
    path: /shopify-webhook$/,
    scheme: 'shopifyHmac',
    how:
      'Shopify webhook signature: `X-Shopify-Hmac-Sha256` is the base64 of the HMAC-SHA256 of the raw request body, keyed with the site\'s app client secret ' +
      '(also the previous secret for an hour after *Rotate secret*, or a legacy webhook secret), compared in constant time. Shopify also sends `X-Shopify-Topic`, ' +
      '`X-Shopify-Shop-Domain` (which site), `X-Shopify-API-Version`, `X-Shopify-Webhook-Id` and `X-Shopify-Event-Id` (the delivery is stored once by it). ' +
      'A wrong signature answers 401 and stores nothing; a repeat answers 200 as a duplicate.',
  },
  {
    path: /hp-webhook$/,
    scheme: 'hpPostbackToken',
    how:
      "HP Site Flow postback: the header `x-postback-token` must equal the site's `HP_POSTBACK_TOKEN` (compared in constant time), and `?site=<slug>` names the site. " +
      'Each postback is stored once; `shipped` is final (a late postback never moves an order back).',
  },
  {
    path: /raiser-edge-webhook$/,
    scheme: 'reWebhookKey',
    how: "Raiser's Edge NXT (SKY API) webhook: `?webhookKey=` must equal the key Presswork gave the subscription for this site; CloudEvents bodies, stored once by event id.",
  },
  {
    path: /^\/uploads\//,
    scheme: 'signedUpload',
    how: 'A signed upload URL from `POST /api/users/me/get-upload-url`: its query carries the signature and expiry, and the `Content-Type` must be the one the link was made for. Good for one file.',
  },
  {
    path: /^\/metrics$/,
    scheme: 'metricsToken',
    how: '`Authorization: Bearer <METRICS_TOKEN>`; without a token set, only a client on this machine (loopback, no proxy headers).',
  },
];

/** `/api/batches/:id/pdf` → `/api/batches/{id}/pdf`; `/files/*key` → `/files/{key}`; with the names. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}

const tagOf = (path: string) => {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api') return parts[1] ?? 'api';
  return parts[0] ?? 'ui';
};

const ERROR = z
  .object({ success: z.literal(false), error: z.string(), field: z.string().optional(), details: z.array(z.object({ field: z.string(), message: z.string() })).optional() })
  .meta({ id: 'Error', description: 'A refusal: a sentence for a person; for a field, its key and every failing field with its sentence.' });

function operationOf(entry: RouteEntry, access: AccessHandler | undefined, params: string[], usedIds: Set<string>): ZodOpenApiOperationObject {
  const doc = access?.doc;
  const credential = access?.access === 'credential' ? CREDENTIALS.find((c) => c.path.test(entry.path)) : undefined;
  const who = access ? WHO[access.access] : 'Not declared.';
  const description = [who, access?.why ? `Proof: ${access.why}.` : '', credential?.how ?? ''].filter(Boolean).join('\n\n');
  let operationId = `${entry.method.toLowerCase()}${entry.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
  while (usedIds.has(operationId)) operationId += '_';
  usedIds.add(operationId);

  const op: ZodOpenApiOperationObject = {
    operationId,
    summary: doc?.summary ?? '',
    description,
    tags: [tagOf(entry.path)],
    responses: {
      '200': { description: 'Done. Product API calls answer `{success: true, data}`; the admin REST calls the plain record or list.' },
      default: { description: 'Refused, in the error envelope (400 bad input naming the field, 401, 403, 404, 409, 413, 429, 503).', content: { 'application/json': { schema: ERROR } } },
    },
  };
  if (doc?.response) {
    op.responses['200'] = { description: 'Done: `{success: true, data}`.', content: { 'application/json': { schema: z.object({ success: z.literal(true), data: doc.response }) } } };
  }
  if (access?.access === 'public') op.security = [];
  else if (credential) op.security = [{ [credential.scheme]: [] }];
  else if (access?.access === 'credential') op.security = [];
  else op.security = [{ bearerAuth: [] }];

  const requestParams: NonNullable<ZodOpenApiOperationObject['requestParams']> = {};
  if (params.length) requestParams.path = z.object(Object.fromEntries(params.map((p) => [p, z.string()])));
  if (doc?.query) requestParams.query = doc.query as z.ZodObject;
  if (Object.keys(requestParams).length) op.requestParams = requestParams;

  if (doc?.body) {
    const bodies = Array.isArray(doc.body) ? doc.body : [doc.body];
    const schema = bodies.length === 1 ? bodies[0] : z.union(bodies as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    op.requestBody = { content: { [doc.bodyType ?? 'application/json']: { schema } } };
  } else if (doc?.bodyType) {
    op.requestBody = { content: { [doc.bodyType]: { schema: { type: 'string', contentMediaType: doc.bodyType } } } };
  }
  return op;
}

/** The routes of the reference: every route of the route table, each method of a path once. */
export function documentedRoutes(app: { router: { stack: unknown[] } }): Array<{ entry: RouteEntry; access: AccessHandler | undefined }> {
  const seen = new Set<string>();
  const out: Array<{ entry: RouteEntry; access: AccessHandler | undefined }> = [];
  for (const entry of routeTable(app)) {
    const key = `${entry.method} ${entry.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ entry, access: accessOf(entry.handlers as RequestHandler[]) });
  }
  return out;
}

/** The OpenAPI 3.1 document of an app. */
export function openApiDocument(app: { router: { stack: unknown[] } }): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  const usedIds = new Set<string>();
  for (const { entry, access } of documentedRoutes(app)) {
    const { path, params } = openApiPath(entry.path);
    const method = entry.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';
    paths[path] = { ...paths[path], [method]: operationOf(entry, access, params, usedIds) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Presswork API',
      version: pkg.version,
      description:
        'The product API (`/api/...`) answers `{success, data, error}`; send `Authorization: Bearer <token>` from `POST /api/users/login`. ' +
        'The admin REST API (`/api/admin/<resource>`) follows ra-data-simple-rest. Creates and sends take an `Idempotency-Key` header. ' +
        'Generated from the route table and the zod schemas each route validates with.',
    },
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token of `POST /api/users/login`.' },
        shopifyHmac: { type: 'apiKey', in: 'header', name: 'X-Shopify-Hmac-Sha256', description: CREDENTIALS[0].how },
        hpPostbackToken: { type: 'apiKey', in: 'header', name: 'x-postback-token', description: CREDENTIALS[1].how },
        reWebhookKey: { type: 'apiKey', in: 'query', name: 'webhookKey', description: CREDENTIALS[2].how },
        signedUpload: { type: 'apiKey', in: 'query', name: 'sig', description: CREDENTIALS[3].how },
        metricsToken: { type: 'http', scheme: 'bearer', description: CREDENTIALS[4].how },
      },
    },
  });
}
