// Artwork fetching without SSRF: our storage, data: URLs, allow-listed hosts on public addresses only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../src/deps';
import { HttpError } from '../src/http/errors';
import { createLogger } from '../src/lib/logger';
import { createArtworkFetcher, isPublicAddress, type ArtworkFetcherOptions } from '../src/modules/pdf/artwork';
import { createWorld, testClock } from './harness';
import { storeFile } from './imageFixtures';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function refusal(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected the URL to be refused');
}

describe('isPublicAddress', () => {
  const refused = [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '169.254.0.1',
    '100.64.0.1', // CGNAT
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.18.0.1',
    '::1',
    '::',
    '0:0:0:0:0:0:0:1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'ff02::1',
    '::ffff:127.0.0.1', // IPv4-mapped
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:8.8.8.8', // mapped public addresses are refused too: connect to the IPv4 address instead
    '::127.0.0.1', // IPv4-compatible
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
    '2002:a9fe:a9fe::1', // 6to4
    '2001::1', // Teredo
    '2001:db8::1',
    'not-an-ip',
    '',
  ];
  const allowed = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.255.255', '2606:4700:4700::1111', '2a00:1450:4009:80b::200e'];

  it.each(refused)('refuses %s', (ip) => expect(isPublicAddress(ip)).toBe(false));
  it.each(allowed)('allows %s', (ip) => expect(isPublicAddress(ip)).toBe(true));

  it('property: every address in a private, loopback, link-local or CGNAT range is refused, also IPv4-mapped', () => {
    const ranges: Array<[number, number]> = [
      [0x0a000000, 8],
      [0x7f000000, 8],
      [0xac100000, 12],
      [0xc0a80000, 16],
      [0xa9fe0000, 16],
      [0x64400000, 10],
    ];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ranges.length - 1 }), fc.integer({ min: 0, max: 0xffffffff }), (r, rand) => {
        const [base, bits] = ranges[r];
        const n = (base | (rand >>> bits)) >>> 0;
        const ip = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
        expect(isPublicAddress(ip)).toBe(false);
        expect(isPublicAddress(`::ffff:${ip}`)).toBe(false);
      }),
    );
  });

  it('property: unique-local and link-local IPv6 are refused', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 }), fc.boolean(), (rest, ula) => {
        const first = ula ? 0xfc00 | (rest[0] & 0x1ff) : 0xfe80 | (rest[0] & 0x3f);
        expect(isPublicAddress([first, ...rest.slice(1), 1].map((g) => g.toString(16)).join(':'))).toBe(false);
      }),
    );
  });
});

describe('createArtworkFetcher', async () => {
  const w = await createWorld({ ARTWORK_ALLOWED_HOSTS: '127.0.0.1,localhost,[::1],169.254.169.254,10.0.0.5,art.test,*.cdn.test', PUBLIC_URL: 'https://print.example.com' });
  const deps: Deps = { db: w.db, clock: testClock(), config: w.config, log: createLogger('silent') };
  const fetchArtwork = w.services.artwork;

  // A local "artwork host" and a log of what reached it.
  const hits: Array<{ url: string; host: string }> = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', host: req.headers.host ?? '' });
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/ok.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    if (u.pathname === '/redirect') return void res.writeHead(302, { Location: u.searchParams.get('to') ?? '/' }).end();
    if (u.pathname === '/big') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(Buffer.alloc(3000));
      return void res.end(Buffer.alloc(3000));
    }
    if (u.pathname === '/slow') return; // never answers
    res.writeHead(404).end('nope');
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Test-only: art.test and *.cdn.test resolve to 127.0.0.1 and loopback counts as public. */
  const testFetcher = (extra: ArtworkFetcherOptions = {}) =>
    createArtworkFetcher(deps, w.services.store, {
      allowLoopbackForTests: true,
      resolve: async (host) => (host === 'art.test' || host.endsWith('.cdn.test') ? ['127.0.0.1'] : host === 'rebind.test' ? ['93.184.216.34', '10.0.0.7'] : ['203.0.113.9']),
      ...extra,
    });

  it('our storage: /files/<key> and PUBLIC_URL/files/<key> are read from the store (no HTTP)', async () => {
    const url = await storeFile(w.services.store, 'art.png', PNG);
    expect((await fetchArtwork(url)).equals(PNG)).toBe(true);
    expect((await fetchArtwork(`https://print.example.com${url}`)).equals(PNG)).toBe(true);
    // The request's own origin (no PUBLIC_URL behind a proxy, or dev) counts as ours too.
    expect((await fetchArtwork(`http://127.0.0.1:54321${url}`, { ownOrigin: 'http://127.0.0.1:54321' })).equals(PNG)).toBe(true);
    // The app's listen address.
    expect((await fetchArtwork(`http://localhost:${w.config.port}${url}`)).equals(PNG)).toBe(true);
  });

  it('storage paths that are not ours or escape the store are refused', async () => {
    const url = await storeFile(w.services.store, 'art.png', PNG);
    // Same path on another origin: that is not our storage (and not allow-listed).
    expect((await refusal(fetchArtwork(`https://evil.example${url}`))).message).toMatch(/^Artwork URL is not allowed: evil\.example/);
    for (const bad of ['/files/../jwt-secret', '/files/%2e%2e/jwt-secret', '/files/', '/etc/passwd', '//evil.example/files/x']) {
      const err = await refusal(fetchArtwork(bad));
      expect(err.status).toBe(400);
    }
    expect((await refusal(fetchArtwork('/files/test/missing.png'))).message).toMatch(/^Artwork file not found/);
  });

  it('data:image/png|jpeg;base64 URLs are decoded; other data: URLs and oversize ones are refused', async () => {
    expect((await fetchArtwork(`data:image/png;base64,${PNG.toString('base64')}`)).equals(PNG)).toBe(true);
    expect((await refusal(fetchArtwork('data:text/html;base64,PGgxPg=='))).message).toMatch(/^Artwork URL is not allowed/);
    expect((await refusal(fetchArtwork('data:image/svg+xml;base64,PHN2Zy8+'))).message).toMatch(/^Artwork URL is not allowed/);
    const small = createArtworkFetcher(deps, w.services.store, { maxBytes: 10 });
    expect((await refusal(small(`data:image/png;base64,${PNG.toString('base64')}`))).message).toMatch(/larger than 10 bytes/);
  });

  it('loopback, private and metadata addresses are refused even when allow-listed, without connecting', async () => {
    hits.length = 0;
    for (const url of [
      `http://127.0.0.1:${port}/ok.png`,
      `http://localhost:${port}/ok.png`,
      `http://[::1]:${port}/ok.png`,
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://10.0.0.5/ok.png',
    ]) {
      const err = await refusal(fetchArtwork(url));
      expect(err.status).toBe(400);
      expect(err.message).toMatch(/^Artwork URL is not allowed: .*(private|loopback|link-local)/);
    }
    expect(hits).toHaveLength(0);
  });

  it('hosts not in ARTWORK_ALLOWED_HOSTS, other schemes and credentials are refused', async () => {
    expect((await refusal(fetchArtwork('https://example.org/a.png'))).message).toBe('Artwork URL is not allowed: example.org is not our storage and not in ARTWORK_ALLOWED_HOSTS');
    for (const url of ['file:///etc/passwd', 'ftp://art.test/a.png', 'gopher://art.test/', 'javascript:alert(1)', 'not a url', '']) {
      expect((await refusal(fetchArtwork(url))).message).toMatch(/^Artwork URL is not allowed/);
    }
    expect((await refusal(testFetcher()(`http://user:pw@art.test:${port}/ok.png`))).message).toMatch(/credentials/);
  });

  it('a name that resolves to any private address is refused (DNS rebinding)', async () => {
    const f = createArtworkFetcher(deps, w.services.store, { resolve: async () => ['93.184.216.34', '10.0.0.7'] });
    expect((await refusal(f('http://art.test/ok.png'))).message).toMatch(/^Artwork URL is not allowed: art\.test resolves to .*10\.0\.0\.7/);
    const meta = createArtworkFetcher(deps, w.services.store, { resolve: async () => ['169.254.169.254'] });
    expect((await refusal(meta('http://art.test/ok.png'))).message).toMatch(/169\.254\.169\.254/);
  });

  it('an allow-listed host on a vetted address is fetched: the socket goes to the vetted IP, the Host header keeps the name', async () => {
    hits.length = 0;
    const f = testFetcher();
    expect((await f(`http://art.test:${port}/ok.png`)).equals(PNG)).toBe(true);
    expect((await f(`http://img.cdn.test:${port}/ok.png`)).equals(PNG)).toBe(true);
    expect(hits.map((h) => h.host)).toEqual([`art.test:${port}`, `img.cdn.test:${port}`]);
  });

  it('redirects are re-vetted hop by hop: to a private address or a foreign host → refused; to an allowed host → followed', async () => {
    const f = testFetcher();
    const via = (to: string) => `http://art.test:${port}/redirect?to=${encodeURIComponent(to)}`;
    expect((await refusal(f(via('http://169.254.169.254/latest/meta-data/')))).message).toMatch(/^Artwork URL is not allowed/);
    expect((await refusal(f(via('http://10.0.0.5/x')))).message).toMatch(/^Artwork URL is not allowed/);
    expect((await refusal(f(via('http://evil.example/x')))).message).toMatch(/^Artwork URL is not allowed: evil\.example/);
    expect((await refusal(f(via('file:///etc/passwd')))).message).toMatch(/^Artwork URL is not allowed/);
    expect((await f(via(`http://art.test:${port}/ok.png`))).equals(PNG)).toBe(true);
    expect((await f(via('/ok.png'))).equals(PNG)).toBe(true);
    let loop = `http://art.test:${port}/ok.png`;
    for (let i = 0; i < 5; i++) loop = via(loop);
    expect((await refusal(f(loop))).message).toMatch(/redirects too many times/);
  });

  it('an answer other than 200, over the byte cap, or too slow → an error, not a hang', async () => {
    expect((await refusal(testFetcher()(`http://art.test:${port}/missing`))).message).toMatch(/HTTP 404$/);
    expect((await refusal(testFetcher({ maxBytes: 4000 })(`http://art.test:${port}/big`))).message).toMatch(/larger than 4000 bytes/);
    const slow = await refusal(testFetcher({ timeoutMs: 150 })(`http://art.test:${port}/slow`));
    expect(slow.status).toBe(504);
    expect(slow.message).toMatch(/timed out/);
  });

  it('the loopback test hook is ignored in production', async () => {
    const prod = createArtworkFetcher({ ...deps, config: { ...w.config, isProduction: true } }, w.services.store, {
      allowLoopbackForTests: true,
      resolve: async () => ['127.0.0.1'],
    });
    expect((await refusal(prod(`http://art.test:${port}/ok.png`))).message).toMatch(/^Artwork URL is not allowed/);
  });
});
