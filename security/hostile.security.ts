// Hostile files and URLs (the security suite), through every route that accepts a file or an
// artwork URL: truncated and pixel-flood images, PDFs with scripts and actions, SVG/HTML with script,
// files whose bytes do not match their declared type, oversize uploads and bodies; URLs to loopback,
// private ranges, the metadata address, odd IP spellings, IPv4-mapped IPv6, DNS names resolving
// inside, and redirects from an allowed public-looking host to all of those. Each must be a clear
// 4xx in the spec's envelope saying what is wrong, with nothing stored and no connection made.
//
// The "public" host cdn.public.test resolves (test resolver hook) to a public address; the dial
// hook sends that socket to a local server. Loopback itself stays refused, so the local server is
// reachable only through the public name: a hit on it from any refused URL is a failure.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../server/test/harness';
import { SECRET_A, SHOP_A, deliver, order } from '../server/test/ordersKit';
import { fixtures } from './fuzz/hostileFiles';
import { blockInternet, outbound } from './fuzz/network';
import { createFuzzWorld } from './fuzz/world';

blockInternet();
const fx = await fixtures();
const MAX_UPLOAD = 400_000;
const PUBLIC_IP = '93.184.216.34';

// ---- the local server standing in for the internet ------------------------------------------------
const hits: string[] = [];
const server = http.createServer((req, res) => {
  hits.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
  const u = new URL(req.url ?? '/', 'http://x');
  const file = /^\/file\/(\d+)$/.exec(u.pathname);
  if (u.pathname === '/ok.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(fx.okPng);
  if (u.pathname === '/ok.pdf') return void res.writeHead(200, { 'Content-Type': 'application/pdf' }).end(fx.okPdf);
  if (file) {
    const f = fx.hostile[Number(file[1])];
    return void res.writeHead(200, { 'Content-Type': f.declared }).end(f.bytes);
  }
  if (u.pathname === '/big') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.concat([fx.okPng, Buffer.alloc(MAX_UPLOAD)]));
  if (u.pathname === '/redirect') return void res.writeHead(302, { Location: u.searchParams.get('to') ?? '/' }).end();
  res.writeHead(404).end('not here');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const PORT = (server.address() as AddressInfo).port;
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Test DNS: names that resolve inside, one that resolves both ways, and the public stand-in. */
const DNS: Record<string, string[]> = {
  'cdn.public.test': [PUBLIC_IP],
  'loopback.test': ['127.0.0.1'],
  'v6loopback.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'private.test': ['10.1.2.3'],
  'rebind.test': [PUBLIC_IP, '10.0.0.7'],
};

// Every host below is allow-listed: what refuses them must be the address check, not the list.
const ALLOWED = [
  'cdn.public.test', ...Object.keys(DNS), 'localhost', '127.0.0.1', '[::1]', '0.0.0.0', '10.0.0.1', '172.16.0.1', '172.31.255.254', '192.168.1.1',
  '[fc00::1]', '[fd12:3456::1]', '[fe80::1]', '169.254.169.254', '[::ffff:7f00:1]', '[::ffff:a9fe:a9fe]', '[::ffff:a00:1]',
];

const fw = await createFuzzWorld(
  { ARTWORK_ALLOWED_HOSTS: ALLOWED.join(','), UPLOAD_MAX_BYTES: String(MAX_UPLOAD) },
  {
    artwork: {
      resolve: async (host) => {
        const found = DNS[host];
        if (!found) throw new Error(`ENOTFOUND ${host}`);
        return found;
      },
      // The vetted public address of cdn.public.test is, in this test, the local server.
      dialForTests: (_host, vetted) => (vetted === PUBLIC_IP ? '127.0.0.1' : vetted),
    },
  },
);
const { w } = fw;
const token = w.tokens.userA;
const post = (path: string, body: unknown) => fw.request().post(path).set(bearer(token)).send(body as object);
const asAdmin = (path: string, body: unknown) => fw.request().post(path).set(bearer(w.tokens.adminA)).send(body as object);
const PUBLIC = `http://cdn.public.test:${PORT}`;

// ---- what the answers must be ------------------------------------------------------------------
const TABLES = ['designs', 'print_jobs', 'uploads', 'general_data', 'store_orders', 'provider_events', 'provider_sends'] as const;
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await w.db(t).count({ n: '*' }))[0].n);
  return out;
}

function refused(res: supertest.Response, what: string, reason: RegExp, status: number[] = [400]): void {
  const body = (typeof res.body === 'object' && res.body && !Buffer.isBuffer(res.body) ? res.body : (() => {
    try {
      return JSON.parse(res.text);
    } catch {
      return null;
    }
  })()) as { success?: boolean; error?: unknown } | null;
  const said = `${what} → ${res.status} ${JSON.stringify(body ?? res.text)?.slice(0, 400)}`;
  expect(status, said).toContain(res.status);
  expect(body?.success, said).toBe(false);
  expect(typeof body?.error, said).toBe('string');
  expect(String(body?.error), said).toMatch(reason);
}

// ---- the routes that take an artwork URL ---------------------------------------------------------
let seq = 0;
const uniq = () => `${Date.now().toString(36)}-${++seq}`;
let okFile = '';
let okJobId = 0;

/** A design document whose front page draws the image at `src`. */
const docWithImage = (src: string) => ({
  version: 1,
  format: 'card-a5',
  pages: [
    { id: 'front', name: 'Front', background: '#ffffff', layers: [{ id: 'img', name: 'Image', type: 'image', x: 10, y: 10, width: 50, height: 50, rotation: 0, opacity: 1, src, fit: 'cover' }] },
    { id: 'il', name: 'Inside left', background: '#ffffff', layers: [] },
    { id: 'ir', name: 'Inside right', background: '#ffffff', layers: [] },
    { id: 'back', name: 'Back', background: '#ffffff', layers: [] },
  ],
});

interface Sink {
  name: string;
  /** Sends the URL; answers the response that must refuse it. */
  call: (url: string) => Promise<supertest.Response>;
  /** The route keeps the URL before anything fetches it (print jobs, designs): a URL refusable from its text alone must be refused at once. */
  keeps?: boolean;
  /** The route takes only http(s) and /files/ addresses (no data: URLs). */
  noDataUrls?: boolean;
}

const SINKS: Sink[] = [
  { name: 'POST /api/images/url-to-base64', call: (url) => post('/api/images/url-to-base64', { url }) },
  { name: 'POST /api/pdf/from-image {url}', call: (url) => post('/api/pdf/from-image', { url }) },
  { name: 'POST /api/pdf/from-image {urls}', call: (url) => post('/api/pdf/from-image', { urls: [okFile, url] }) },
  { name: 'POST /api/pdf/crop-bleed-pdf-to-front-page-image', call: (url) => post('/api/pdf/crop-bleed-pdf-to-front-page-image', { url }) },
  { name: 'POST /api/designs/create-with-front-image', noDataUrls: true, call: (url) => post('/api/designs/create-with-front-image', { name: 'Hostile', sku: `H-${uniq()}`, imageUrl: url }) },
  { name: 'POST /api/images/from-polotno (image layer)', call: (url) => post('/api/images/from-polotno', { document: docWithImage(url), dpi: 72 }) },
  { name: 'POST /api/pdf/from-print-job {images}', call: (url) => post('/api/pdf/from-print-job', { id: okJobId, images: [url, okFile, okFile, okFile] }) },
  {
    name: 'print-job artwork: POST /api/print-jobs → /api/pdf/from-print-job',
    keeps: true,
    call: async (url) => {
      const made = await post('/api/print-jobs', { productName: 'Hostile', artworkUrls: [url, okFile, okFile, okFile] });
      return made.status === 200 ? post('/api/pdf/from-print-job', { id: made.body.data.id }) : made;
    },
  },
  {
    name: 'print-job pregenerated PDF: POST /api/print-jobs → /api/pdf/from-print-job',
    keeps: true,
    call: async (url) => {
      const made = await post('/api/print-jobs', { productName: 'Hostile PDF', data: { pregeneratedPDF: url } });
      return made.status === 200 ? post('/api/pdf/from-print-job', { id: made.body.data.id }) : made;
    },
  },
  {
    name: 'design artwork: POST /api/designs → order → hood-download-pdf',
    keeps: true,
    call: (url) => designThenOrderPdf(url, (body) => post('/api/designs', body)),
  },
  {
    name: 'admin REST: POST /api/admin/print-jobs → /api/pdf/from-print-job',
    keeps: true,
    call: async (url) => {
      const made = await asAdmin('/api/admin/print-jobs', { productName: 'Hostile (admin)', artworkUrls: [url, okFile, okFile, okFile] });
      return made.status === 201 ? post('/api/pdf/from-print-job', { id: made.body.id }) : made;
    },
  },
  {
    name: 'admin REST: POST /api/admin/designs → order → hood-download-pdf',
    keeps: true,
    call: (url) => designThenOrderPdf(url, (body) => asAdmin('/api/admin/designs', body)),
  },
];

/** A design with the URL as its image and first artwork page, an order for it, then its line's print PDF. */
async function designThenOrderPdf(url: string, create: (body: object) => Promise<supertest.Response>): Promise<supertest.Response> {
  const sku = `HD-${uniq()}`;
  const made = await create({ name: 'Hostile design', sku, image: url, data: { artworkUrls: [url, okFile, okFile, okFile] } });
  if (made.status >= 300) return made;
  const o = order({ skus: [sku] });
  expect((await deliver(w, o, { secret: SECRET_A, shop: SHOP_A })).status).toBe(200);
  return post('/api/online-stores/shopify-webhook/hood-download-pdf', { id: String(o.id), lineId: String(o.line_items[0].id) });
}

beforeAll(async () => {
  // A good file and a good job, so that every refusal below is about the hostile part only.
  const grant = await fw.grant();
  const put = await fw.request().put(grant).set('Content-Type', 'image/png').send(fx.okPng);
  expect(put.status, put.text).toBe(200);
  okFile = put.body.data.url;
  const job = await post('/api/print-jobs', { productName: 'Good', artworkUrls: [okFile, okFile, okFile, okFile] });
  expect(job.status, job.text).toBe(200);
  okJobId = job.body.data.id;
});

describe('controls: the same routes accept good input (so the refusals below are about the input)', () => {
  it('a public allow-listed host, our storage and a data: URL are fetched', async () => {
    hits.length = 0;
    const b64 = await post('/api/images/url-to-base64', { url: `${PUBLIC}/ok.png` });
    expect(b64.status, b64.text).toBe(200);
    expect(b64.body.data).toBe(`data:image/png;base64,${fx.okPng.toString('base64')}`);
    expect(hits).toEqual([`cdn.public.test:${PORT}/ok.png`]);
    expect((await post('/api/pdf/from-image', { urls: [okFile, `data:image/png;base64,${fx.okPng.toString('base64')}`] })).status).toBe(200);
    expect((await post('/api/pdf/from-print-job', { id: okJobId })).status).toBe(200);
    const crop = await post('/api/pdf/crop-bleed-pdf-to-front-page-image', { url: `${PUBLIC}/ok.pdf` });
    expect(crop.status, crop.text).toBe(200);
    const front = await post('/api/designs/create-with-front-image', { name: 'Good', sku: `G-${uniq()}`, imageUrl: `${PUBLIC}/ok.png` });
    expect(front.status, front.text).toBe(200);
    const polotno = await post('/api/images/from-polotno', { document: docWithImage(`${PUBLIC}/ok.png`), dpi: 72 });
    expect(polotno.status, polotno.text).toBe(200);
  });
});

// ---- URLs that reach inside ----------------------------------------------------------------------
interface InsideUrl {
  url: string;
  /** Refusable from the URL's text alone (a literal address or localhost): routes that keep URLs must refuse it before storing. */
  literal: boolean;
}

const LITERAL_TARGETS = [
  `http://127.0.0.1:${PORT}/ok.png`,
  `http://localhost:${PORT}/ok.png`,
  `http://[::1]:${PORT}/ok.png`,
  `http://0.0.0.0:${PORT}/ok.png`,
  'http://10.0.0.1/ok.png',
  'http://172.16.0.1/ok.png',
  'http://172.31.255.254/ok.png',
  'http://192.168.1.1/ok.png',
  'http://[fc00::1]/ok.png',
  'http://[fd12:3456::1]/ok.png',
  'http://[fe80::1]/ok.png',
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  `http://2130706433:${PORT}/ok.png`, // decimal 127.0.0.1
  `http://0x7f000001:${PORT}/ok.png`, // hex
  `http://0177.0.0.1:${PORT}/ok.png`, // octal
  `http://127.1:${PORT}/ok.png`, // short form
  `http://[::ffff:127.0.0.1]:${PORT}/ok.png`, // IPv4-mapped IPv6
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://[::ffff:10.0.0.1]/ok.png',
];
const DNS_TARGETS = [
  `http://loopback.test:${PORT}/ok.png`,
  `http://v6loopback.test:${PORT}/ok.png`,
  `http://mapped.test:${PORT}/ok.png`,
  'http://metadata.test/latest/meta-data/',
  'http://private.test/ok.png',
  `http://rebind.test:${PORT}/ok.png`,
];
const INSIDE: InsideUrl[] = [
  ...LITERAL_TARGETS.map((url) => ({ url, literal: true })),
  ...DNS_TARGETS.map((url) => ({ url, literal: false })),
  // Redirects from the allowed public host to every one of them (and to a file: URL).
  ...[...LITERAL_TARGETS, ...DNS_TARGETS, 'file:///etc/passwd'].map((to) => ({ url: `${PUBLIC}/redirect?to=${encodeURIComponent(to)}`, literal: false })),
];
const INSIDE_REASON = /Artwork URL is not allowed: .*(private|loopback|link-local|metadata|only http\(s\))/;

describe.each(SINKS)('URLs to loopback, private ranges and the metadata address: $name', (sink) => {
  it.each(INSIDE)('$url → 400, nothing stored, no connection', async ({ url, literal }) => {
    hits.length = 0;
    const before = await counts();
    const res = await sink.call(url);
    refused(res, `${sink.name} ${url}`, INSIDE_REASON);
    // Only the public stand-in's redirect answer may be fetched: nothing inside ever is.
    expect(hits.filter((h) => !h.startsWith(`cdn.public.test:${PORT}/redirect`))).toEqual([]);
    if (!sink.keeps || literal) expect(await counts(), `${sink.name} stored something for ${url}`).toEqual(before);
  });
});

// ---- hostile files behind URLs -------------------------------------------------------------------
/** Hostile by their bytes (not merely mislabelled): refused whatever route fetches them. */
const BY_CONTENT = fx.hostile.map((f, i) => ({ ...f, i })).filter((f) => !/ declared /.test(f.name) || /SVG|HTML/.test(f.name));
/** A route needing another kind of file may say that instead (e.g. a PDF given where a PNG is needed). */
const OTHER_KIND = /not a PDF|must be a PNG|PNG or JPEG|PNG, JPEG|not a PNG/;

const sources = async (f: (typeof BY_CONTENT)[number]) => {
  const stored = `/files/legacy/${uniq()}-${f.name.replace(/\W+/g, '-')}`;
  // As if uploaded before the upload checks existed: straight into the store.
  await fw.services.store.put(stored.slice('/files/'.length), Readable.from(f.bytes));
  const list = [
    { via: 'allowed host', url: `${PUBLIC}/file/${f.i}` },
    { via: 'our storage', url: stored },
  ];
  if (f.declared === 'image/png' || f.declared === 'image/jpeg') list.push({ via: 'data: URL', url: `data:${f.declared};base64,${f.bytes.toString('base64')}` });
  return list;
};

describe.each(SINKS)('hostile files behind a URL: $name', (sink) => {
  it.each(BY_CONTENT)('$name → 4xx saying what is wrong', async (f) => {
    for (const { via, url } of await sources(f)) {
      const before = await counts();
      const res = await sink.call(url);
      // Routes that keep URLs accept only http(s) and /files/ addresses: a data: URL is refused for that.
      const reason = (sink.keeps || sink.noDataUrls) && via === 'data: URL' ? /must be an http\(s\) URL|is too long/ : new RegExp(`${f.reason.source}|${OTHER_KIND.source}`);
      refused(res, `${sink.name} ${f.name} via ${via}`, reason, [400, 413]);
      if (!sink.keeps) expect(await counts(), `${sink.name} stored something for ${f.name}`).toEqual(before);
    }
  });
});

// ---- uploads -------------------------------------------------------------------------------------
describe('uploads (PUT on a signed link): hostile files are refused before anything is stored', () => {
  const upload = async (bytes: Buffer, type: string) => {
    const grant = await w.request().post('/api/users/me/get-upload-url').set(bearer(token)).send({ serverSidePath: `hostile/${uniq()}.bin`, contentType: type });
    expect(grant.status, grant.text).toBe(200);
    const target = new URL(grant.body.data);
    const key = decodeURIComponent(target.pathname.slice('/uploads/'.length));
    // superagent would JSON-encode a Buffer sent as application/json: text types go as text.
    const res = await fw.request().put(`${target.pathname}${target.search}`).set('Content-Type', type).send(/^(text|application\/json)/.test(type) ? bytes.toString('latin1') : bytes);
    return { res, key };
  };
  const nothingStored = async (key: string) => {
    expect(await w.db('uploads').where({ key }).first()).toBeUndefined();
    expect(await fw.services.store.read(key)).toBeNull();
    expect((await fw.request().get(`/files/${key}`)).status).toBe(404);
  };

  it('controls: a good PNG, JPEG, PDF, CSV and JSON are accepted', async () => {
    for (const [bytes, type] of [
      [fx.okPng, 'image/png'],
      [fx.okJpeg, 'image/jpeg'],
      [fx.okPdf, 'application/pdf'],
      [Buffer.from('name,qty\nCard,1\n'), 'text/csv'],
      [Buffer.from('{"a":[1,2]}'), 'application/json'],
    ] as const) {
      const { res } = await upload(bytes, type);
      expect(res.status, `${type}: ${res.text}`).toBe(200);
    }
  });

  it.each(fx.hostile)('$name (declared $declared) → 400 saying why', async (f) => {
    const { res, key } = await upload(f.bytes, f.declared);
    refused(res, f.name, f.reason);
    await nothingStored(key);
  });

  it('SVG, HTML and other unlisted types cannot even get an upload link', async () => {
    for (const type of ['image/svg+xml', 'text/html', 'application/xhtml+xml', 'application/javascript', 'application/octet-stream']) {
      const res = await w.request().post('/api/users/me/get-upload-url').set(bearer(token)).send({ serverSidePath: 'x/evil.svg', contentType: type });
      refused(res, type, /^File type must be one of PNG, JPEG/);
      expect(res.body.field).toBe('contentType');
    }
  });

  it('a Content-Type other than the link\'s → 400; over UPLOAD_MAX_BYTES → 413; nothing stored', async () => {
    const grant = await w.request().post('/api/users/me/get-upload-url').set(bearer(token)).send({ serverSidePath: 'x/a.png', contentType: 'image/png' });
    const target = new URL(grant.body.data);
    const key = decodeURIComponent(target.pathname.slice('/uploads/'.length));
    refused(await fw.request().put(`${target.pathname}${target.search}`).set('Content-Type', 'image/svg+xml').send(fx.okPng), 'svg content type', /Content-Type must be image\/png/);
    const big = Buffer.concat([fx.okPng, Buffer.alloc(MAX_UPLOAD)]);
    refused(await fw.request().put(`${target.pathname}${target.search}`).set('Content-Type', 'image/png').send(big), 'oversize upload', /too large/, [413]);
    await nothingStored(key);
  });
});

// ---- oversize bodies and remote files ------------------------------------------------------------
describe('oversize: JSON bodies over BODY_LIMIT, data: URLs and remote files over UPLOAD_MAX_BYTES', () => {
  const hugeDataUrl = `data:image/png;base64,${Buffer.concat([fx.okPng, Buffer.alloc(1_200_000)]).toString('base64')}`;
  const overCap = `data:image/png;base64,${Buffer.concat([fx.okPng, Buffer.alloc(MAX_UPLOAD)]).toString('base64')}`;

  it.each(SINKS)('$name: a body over the JSON limit → 413; a data: URL or a remote file over the cap → 400', async (sink) => {
    const before = await counts();
    refused(await sink.call(hugeDataUrl), `${sink.name} huge body`, /request body is too large/, [413]);
    refused(await sink.call(`${PUBLIC}/big`), `${sink.name} big remote file`, /larger than \d+ bytes/);
    if (!sink.keeps) {
      refused(await sink.call(overCap), `${sink.name} data: URL over the cap`, sink.noDataUrls ? /is too long/ : /larger than \d+ bytes/);
      expect(await counts()).toEqual(before);
    }
  });
});

describe('and through all of it', () => {
  it('nothing reached for the internet (every host above resolves through the test resolver)', () => {
    expect(outbound).toEqual([]);
  });
});
