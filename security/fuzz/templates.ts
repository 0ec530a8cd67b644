// Valid-looking bodies for the routes that take one, so the fuzz gets past validation into the
// services: a template, then a few of its fields (or fields of its nested objects) replaced by
// hostile values of any type, dropped, or joined by unknown ones.
import fc from 'fast-check';
import { hostileString, type BodyCase } from './arbitraries';

export interface TemplateContext {
  ids: number[];
  fileUrl: string;
  orderId: string;
  lineId: string;
  siteA: number;
  siteB: number;
}

type Template = Record<string, unknown>;

/** Templates by "METHOD path" (paths as in the route table; `*` matches any method). */
export function templatesFor(method: string, path: string, c: TemplateContext): Template[] {
  const art = [c.fileUrl, c.fileUrl, c.fileUrl, c.fileUrl];
  const design = { name: 'Fuzz card', sku: 'FUZZ-T', productType: 'Card', isCustomizable: false, hpSKU: 'HP-1', image: c.fileUrl, data: { artworkUrls: art } };
  const doc = {
    version: 1,
    format: 'card-a5',
    pages: [{ id: 'p', name: 'Front', background: '#ffffff', layers: [{ id: 't', name: 'T', type: 'text', x: 10, y: 10, width: 100, height: 20, rotation: 0, opacity: 1, text: 'Hi', fontFamily: 'Lora', fontSize: 12, fontWeight: 400, color: '#000000', align: 'left', lineHeight: 1.2 }] }],
  };
  const order = { id: c.orderId, orderId: c.orderId, lineId: c.lineId, siteId: c.siteA };
  const key = `${method} ${path}`;
  const T: Array<[RegExp, Template[]]> = [
    [/^POST \/api\/users\/login$/, [{ email: 'user-a@example.com', password: 'wrong password' }]],
    [/^POST \/api\/users\/(register|upsert)$/, [{ firstName: 'Fuzz', lastName: 'User', email: 'fuzz@example.com', password: 'long enough password', role: 'user', siteId: c.siteA }]],
    [/^POST \/api\/users\/me\/get-upload-url$/, [{ serverSidePath: 'fuzz/a.png', contentType: 'image/png' }]],
    [/^(POST|PUT) \/api(\/admin)?\/sites(\/:id)?$/, [{ name: 'Fuzz site', slug: 'fuzz-site', theme: { mainColor: '#123456' }, settings: { env: [{ key: 'A_KEY', value: 'x' }] } }]],
    [/^POST \/api\/general-data\/:type$/, [{ data: { note: 'x' }, publicPermission: { read: 1, update: 0 } }, { id: c.ids[0], data: { a: 1 } }]],
    [/^(POST|PUT) \/api\/admin\/general-data(\/:id)?$/, [{ type: 'production-note', data: { note: 'x' }, siteId: c.siteA }]],
    [/^POST \/api\/print-jobs$/, [{ productName: 'Fuzz job', artworkUrls: art, quantity: 1, flags: { readyForPrint: 1 } }, { id: c.ids[0], isPrinted: true }, { id: c.ids[0], isPDFDownloaded: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop' }]],
    [/^(POST|PUT) \/api\/admin\/print-jobs(\/:id)?$/, [{ productName: 'Fuzz job', artworkUrls: art, clientId: c.siteA }]],
    [/^(POST|PUT) \/api(\/admin)?\/designs(\/:id)?$/, [design]],
    [/^POST \/api\/designs\/import-from-json$/, [{ json: { name: 'Imported', sku: 'IMP-1', pages: [] } }, { json: '{"name":"x"}' }]],
    [/^POST \/api\/designs\/create-with-front-image$/, [{ name: 'Front', sku: 'FRONT-1', imageUrl: c.fileUrl }]],
    [/^POST \/api\/pdf\/from-image$/, [{ urls: art }, { url: c.fileUrl }]],
    [/^POST \/api\/pdf\/crop-bleed-pdf-to-front-page-image$/, [{ url: c.fileUrl, bleedMm: 3 }]],
    [/^POST \/api\/pdf\/from-print-job$/, [{ id: c.ids[0] }, { id: c.ids[1], images: art }]],
    [/^POST \/api\/images\/url-to-base64$/, [{ url: c.fileUrl }]],
    [/^POST \/api\/images\/from-polotno$/, [{ document: doc, page: 1, dpi: 36 }, { designId: c.ids[0], page: 1, dpi: 36, values: { Name: 'x' } }]],
    [/^POST \/api\/online-stores\/(check-order|shopify-webhook\/order-to-arwork|shopify-webhook\/send-hp)$/, [order]],
    [/^POST \/api\/online-stores\/reconcile$/, [{ site: 'site-a', since: '2026-11-20T10:00:00Z' }]],
    [/^POST \/api\/online-stores\/rerun-order$/, [{ ...order, flags: { sendToHP: true, addToAdestra: true } }]],
    [/^POST \/api\/online-stores\/shopify-webhook\/(hood-.*|send-hp-single-line)$/, [{ ...order, page: 1 }]],
    [/^POST \/api\/online-stores\/manually-send-hp$/, [{ orderData: { sourceOrderId: 'M-1', customerName: 'Ada' }, items: [{ pdfUrl: c.fileUrl, sku: 'HP-1', quantity: 1, sourceItemId: 'i1' }] }]],
    [/^POST \/api\/online-stores\/(check-connection|register-webhooks)$/, [{ site: 'site-a' }]],
    [/^POST \/api\/online-stores\/hp-webhook$/, [{ event: 'status', sourceOrderId: c.orderId, orderId: 'hp-1', status: 'shipped', timestamp: '2026-11-21T10:00:00Z', shipment: { trackingNumber: 'T1' } }]],
    [/^(POST|PUT) \/api\/admin\/products(\/:id)?$/, [{ storeSku: 'STORE-X', designId: c.ids[0], productType: 'Card' }]],
    [/^(POST|PUT) \/api\/admin\/(resellers|instances)(\/:id)?$/, [{ name: 'Fuzz', data: { a: 1 } }]],
    [/^(POST|PUT) \/api\/admin\/users(\/:id)?$/, [{ firstName: 'Fuzz', email: 'fuzz2@example.com', password: 'long enough password', role: 'user', siteId: c.siteA }]],
    [/\/sync-config\/:job$/, [{ hour: 3, targetDate: '2026-11-20' }]],
    [/\/raiser-edge-sync-one$/, [{ id: '280' }, { constituentId: '280' }]],
    [/\/raiser-edge-sync-list-from-specific-day$/, [{ date: '2026-11-20' }]],
    [/\/(sync-single-\w+|list-file-\w+|list-handle-\w+)$/, [{ name: 'export80-20261120.csv', force: 1 }]],
    [/^POST \/api\/test\/raiser-edge\/call$/, [{ site: 'site-a', path: '/constituent/v1/constituents?limit=1' }]],
    [/^POST \/api\/test\//, [{ site: 'site-a' }]],
  ];
  return T.filter(([re]) => re.test(key)).flatMap(([, t]) => t);
}

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, [], {}, [[]], ''),
  fc.integer(),
  fc.jsonValue({ maxDepth: 2 }),
);

function mutate(t: Template, edits: Array<[number, number, unknown]>): Template {
  const out: Template = structuredClone(t);
  for (const [which, op, shared] of edits) {
    // A copy: the arbitraries hand out the same constant objects ({}, []) to every run, and a
    // later edit descending into one would otherwise change it for good (even make it circular).
    const value = structuredClone(shared);
    // Descend into a nested object half of the time (data, theme, settings, document…).
    let target: Record<string, unknown> = out;
    const nested = Object.values(target).filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v));
    if (nested.length && which % 2) target = nested[which % nested.length];
    const keys = Object.keys(target);
    const k = keys.length ? keys[which % keys.length] : 'x';
    if (op === 0) delete target[k];
    else if (op === 1) target[`${k}_${which}`] = value;
    else target[k] = value;
  }
  return out;
}

/** A body from the route's templates with a few hostile edits, or null when the route has none. */
export function templateBody(method: string, path: string, c: TemplateContext): fc.Arbitrary<BodyCase> | null {
  const templates = templatesFor(method, path, c);
  if (!templates.length) return null;
  return fc
    .tuple(fc.constantFrom(...templates), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 4 }), anyValue), { minLength: 0, maxLength: 3 }))
    .map(([t, edits]): BodyCase => ({ kind: 'json', value: mutate(t, edits) }));
}
