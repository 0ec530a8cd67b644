// Artwork fetching without SSRF. An artwork URL is one of:
//  - our own storage: `/files/<key>` (relative), or an absolute URL to /files/… on our own origin
//    (PUBLIC_URL, or the app's own listen address) → read from the FileStore, no HTTP at all;
//  - `data:image/png|jpeg;base64,…` → decoded, size-capped;
//  - http(s) on a host listed in ARTWORK_ALLOWED_HOSTS → fetched, but only from a public address:
//    we resolve the name ourselves, refuse loopback/private/link-local/CGNAT/… addresses, and connect
//    to the vetted address (no second lookup, so no DNS-rebinding window). Redirects are re-vetted
//    hop by hop (at most 3), with a timeout and a byte cap.
// Anything else → 400 "Artwork URL is not allowed: …".
// Whatever the source, the bytes are vetted before any consumer sees them: markup (SVG/HTML) is
// refused, PNG/JPEG must be complete and within the pixel limit, PDFs must carry no active content.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Deps } from '../../deps';
import { HttpError, badRequest } from '../../http/errors';
import { ImageError, inspectJpeg, isJpeg, isPng, sniffImage } from '../images';
import { looksLikeMarkup, pdfProblem } from '../uploads';
import type { FileStore } from '../uploads';

export type ArtworkFetcher = (url: string, ctx?: ArtworkFetchContext) => Promise<Buffer>;

export interface ArtworkFetchContext {
  /** The origin the request came in on (e.g. `http://localhost:8080`): its /files/… URLs are ours too. */
  ownOrigin?: string;
}

export interface ArtworkFetcherOptions {
  /** DNS resolution, injectable for tests. Default: the system resolver (all addresses). */
  resolve?: (host: string) => Promise<string[]>;
  /** Test-only: treat loopback (127/8, ::1) as public so a local test server can stand in for an allowed host. Ignored in production. */
  allowLoopbackForTests?: boolean;
  /**
   * Test-only: the address the socket really goes to, given the vetted (public) one — so a local
   * server can stand in for a public host while loopback stays refused. Ignored in production.
   */
  dialForTests?: (host: string, vetted: string) => string;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

const MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 15_000;

export const notAllowed = (why: string) => badRequest(`Artwork URL is not allowed: ${why}`);

// ---------------------------------------------------------------------------------------------
// Addresses

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const V4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. 255.255.255.255
];

function inV4(ip: string, [base, bits]: [string, number]): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return ((ipv4ToInt(ip) & mask) >>> 0) === ((ipv4ToInt(base) & mask) >>> 0);
}

/** 8 groups of 16 bits, or null when not a valid IPv6 literal. */
function ipv6Groups(ip: string): number[] | null {
  if (!net.isIPv6(ip)) return null;
  let s = ip.split('%')[0].toLowerCase();
  // A trailing dotted quad (::ffff:1.2.3.4) → two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = ipv4ToInt(dotted[1]);
    s = s.slice(0, -dotted[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - h.length - t.length).fill('0');
  const groups = [...h, ...fill, ...t].map((g) => parseInt(g || '0', 16));
  return groups.length === 8 ? groups : null;
}

/**
 * True only for a globally routable unicast address. Refuses loopback, private, link-local
 * (incl. the 169.254.169.254 metadata service), CGNAT, multicast, reserved and documentation ranges,
 * ::1, ::, fc00::/7, fe80::/10, and IPv4 embedded in IPv6 (mapped, compatible, NAT64, 6to4, Teredo).
 */
export function isPublicAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return !V4_BLOCKED.some((range) => inV4(ip, range));
  const g = ipv6Groups(ip);
  if (!g) return false;
  if (g.every((x) => x === 0)) return false; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return false; // ::1
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return false; // ::ffff:a.b.c.d, ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b) return false; // 64:ff9b::/96 NAT64 (reaches IPv4 space)
  if (g[0] === 0x2002) return false; // 6to4 (embeds IPv4)
  if (g[0] === 0x2001 && g[1] === 0) return false; // Teredo
  if (g[0] === 0x2001 && g[1] === 0xdb8) return false; // documentation
  if ((g[0] & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((g[0] & 0xffc0) === 0xfec0) return false; // fec0::/10 site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return false; // multicast
  return (g[0] & 0xe000) === 0x2000; // only 2000::/3 is global unicast
}

function isLoopback(ip: string): boolean {
  if (net.isIPv4(ip)) return inV4(ip, ['127.0.0.0', 8]);
  const g = ipv6Groups(ip);
  return !!g && g.slice(0, 7).every((x) => x === 0) && g[7] === 1;
}

// ---------------------------------------------------------------------------------------------
// URLs

/**
 * Why an http(s) artwork URL can never be fetched, judged from the URL alone (no DNS): credentials,
 * or a host that is `localhost` or a literal non-public IP (any spelling: 2130706433, 0x7f000001,
 * 0177.0.0.1 and ::ffff:127.0.0.1 are normalised by the URL parser). A loopback /files/… URL is let
 * through (it may be this server's own storage, checked when fetched). Used where URLs are stored,
 * so that an address that can only reach inside is refused before it is saved; null when fine.
 */
export function storedUrlProblem(raw: string): string | null {
  if (!/^https?:/i.test(raw)) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'Artwork URL is not allowed: it is not a valid URL';
  }
  if (u.username || u.password) return 'Artwork URL is not allowed: URLs with credentials are refused';
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  const loopbackName = host === 'localhost' || host.endsWith('.localhost');
  const literal = net.isIP(host) !== 0;
  if (!loopbackName && !(literal && !isPublicAddress(host))) return null;
  if (u.pathname.startsWith('/files/') && (loopbackName || isLoopback(host))) return null;
  return `Artwork URL is not allowed: ${host} is a private, loopback, link-local or metadata address`;
}

const DATA_URL = /^data:(image\/(?:png|jpeg|jpg));base64,/i;

function hostAllowed(host: string, allowed: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((a) => (a.startsWith('*.') ? h.endsWith(a.slice(1)) && h.length > a.length - 1 : h === a));
}

/** The store key of a `/files/<key>` path, or null. */
function fileKeyOf(pathname: string): string | null {
  if (!pathname.startsWith('/files/')) return null;
  let parts: string[];
  try {
    parts = pathname.slice('/files/'.length).split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  if (!parts.length || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) return null;
  return parts.join('/');
}

function originOf(u: string | undefined): string | null {
  if (!u) return null;
  try {
    return new URL(u).origin;
  } catch {
    return null;
  }
}

const describe = (url: string) => (url.length > 120 ? `${url.slice(0, 117)}…` : url);

/**
 * Why fetched artwork bytes must not be used, or null: markup (SVG/HTML/XML) instead of an image,
 * a truncated PNG/JPEG or one declaring more pixels than the limit, a PDF with active content.
 * Other formats (WebP, GIF) are left to their consumer.
 */
export async function artworkBytesProblem(bytes: Buffer): Promise<string | null> {
  try {
    if (isPng(bytes)) sniffImage(bytes);
    else if (isJpeg(bytes)) inspectJpeg(bytes);
    else if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return await pdfProblem(bytes);
    else if (looksLikeMarkup(bytes)) return 'it is markup (SVG, HTML or XML), not a PNG, JPEG or PDF';
    return null;
  } catch (err) {
    if (err instanceof ImageError) return err.message;
    throw err;
  }
}

export function createArtworkFetcher(deps: Deps, store: FileStore, options: ArtworkFetcherOptions = {}): ArtworkFetcher {
  const { config } = deps;
  const maxBytes = options.maxBytes ?? config.uploads.maxBytes;
  const timeoutMs = options.timeoutMs ?? Math.min(DEFAULT_TIMEOUT_MS, config.artwork.pdfTimeoutMs);
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const allowLoopback = !!options.allowLoopbackForTests && !config.isProduction;
  const resolve =
    options.resolve ??
    (async (host: string) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address));

  // Our own origins: PUBLIC_URL, and the listen address as seen from this machine.
  const ownOrigins = new Set<string>();
  const pub = originOf(config.publicUrl);
  if (pub) ownOrigins.add(pub);
  for (const host of ['localhost', '127.0.0.1', '[::1]', config.host === '0.0.0.0' || config.host === '::' ? null : config.host]) {
    if (!host) continue;
    for (const proto of ['http', 'https']) {
      const o = originOf(`${proto}://${host}:${config.port}`);
      if (o) ownOrigins.add(o);
    }
  }

  const dial = config.isProduction ? undefined : options.dialForTests;
  const vetAddress = (ip: string) => isPublicAddress(ip) || (allowLoopback && isLoopback(ip));

  async function fromStore(key: string, url: string): Promise<Buffer> {
    let bytes: Buffer | null;
    try {
      bytes = await store.read(key);
    } catch {
      bytes = null;
    }
    if (!bytes) throw badRequest(`Artwork file not found: ${describe(url)}`);
    if (bytes.length > maxBytes) throw badRequest(`Artwork file is larger than ${maxBytes} bytes: ${describe(url)}`);
    return bytes;
  }

  function fromDataUrl(url: string): Buffer {
    const m = DATA_URL.exec(url);
    if (!m) throw notAllowed('only data:image/png and data:image/jpeg base64 URLs are accepted');
    const payload = url.slice(m[0].length);
    if (Math.floor((payload.length * 3) / 4) > maxBytes + 3) throw badRequest(`Artwork data URL is larger than ${maxBytes} bytes`);
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload)) throw badRequest('Artwork data URL is not valid base64');
    const bytes = Buffer.from(payload, 'base64');
    if (!bytes.length) throw badRequest('Artwork data URL is empty');
    if (bytes.length > maxBytes) throw badRequest(`Artwork data URL is larger than ${maxBytes} bytes`);
    return bytes;
  }

  /** Resolve, vet every address, return the one we will connect to. */
  async function vettedAddress(host: string): Promise<{ address: string; family: 4 | 6 }> {
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    let addresses: string[];
    if (net.isIP(bare)) addresses = [bare];
    // localhost and *.localhost are loopback by definition (RFC 6761), whatever a resolver says.
    else if (/^(?:.+\.)?localhost\.?$/i.test(bare)) addresses = ['127.0.0.1', '::1'];
    else {
      try {
        addresses = await resolve(bare);
      } catch {
        throw badRequest(`Artwork host could not be resolved: ${bare}`);
      }
    }
    if (!addresses.length) throw badRequest(`Artwork host could not be resolved: ${bare}`);
    // Every address must be public: a name that also points inside is refused outright.
    const bad = addresses.find((a) => !vetAddress(a));
    if (bad) throw notAllowed(`${bare} resolves to a private, loopback or link-local address (${bad})`);
    const address = dial ? dial(bare, addresses[0]) : addresses[0];
    return { address, family: net.isIPv6(address) ? 6 : 4 };
  }

  function request(target: URL, pinned: { address: string; family: 4 | 6 }): Promise<{ status: number; location?: string; body?: Buffer }> {
    return new Promise((resolvePromise, reject) => {
      const mod = target.protocol === 'https:' ? https : http;
      // The socket goes to the vetted address; Host header and TLS SNI/certificate check still use the name.
      const lookup = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (opts?.all) cb(null, [{ address: pinned.address, family: pinned.family }]);
        else cb(null, pinned.address, pinned.family);
      }) as unknown as net.LookupFunction;
      const req = mod.request(
        target,
        { method: 'GET', lookup, agent: false, headers: { Accept: 'image/png,image/jpeg,application/pdf,*/*;q=0.5', 'User-Agent': 'Presswork-artwork/1' }, timeout: timeoutMs },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            res.resume();
            return resolvePromise({ status, location: res.headers.location });
          }
          if (status !== 200) {
            res.resume();
            return resolvePromise({ status });
          }
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) {
            res.destroy();
            return reject(badRequest(`Artwork at ${describe(target.href)} is larger than ${maxBytes} bytes`));
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBytes) {
              res.destroy();
              reject(badRequest(`Artwork at ${describe(target.href)} is larger than ${maxBytes} bytes`));
              return;
            }
            chunks.push(c);
          });
          res.on('end', () => resolvePromise({ status, body: Buffer.concat(chunks) }));
          res.on('error', (err) => reject(err));
        },
      );
      const timer = setTimeout(() => req.destroy(new HttpError(504, `Artwork download timed out: ${describe(target.href)}`)), timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('timeout', () => req.destroy(new HttpError(504, `Artwork download timed out: ${describe(target.href)}`)));
      req.on('error', (err) => reject(err instanceof HttpError ? err : badRequest(`Artwork could not be fetched from ${describe(target.href)}: ${err.message}`)));
      req.end();
    });
  }

  async function fromRemote(start: URL): Promise<Buffer> {
    let target = start;
    for (let hop = 0; ; hop++) {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw notAllowed(`only http(s) URLs can be fetched (${target.protocol})`);
      if (target.username || target.password) throw notAllowed('URLs with credentials are refused');
      if (!hostAllowed(target.hostname, config.artwork.allowedHosts)) {
        throw notAllowed(`${target.hostname} is not our storage and not in ARTWORK_ALLOWED_HOSTS`);
      }
      const pinned = await vettedAddress(target.hostname);
      const res = await request(target, pinned);
      if (res.body) return res.body;
      if (res.location !== undefined) {
        if (hop >= maxRedirects) throw badRequest(`Artwork URL redirects too many times: ${describe(start.href)}`);
        try {
          target = new URL(res.location, target);
        } catch {
          throw badRequest(`Artwork URL redirects to an invalid address: ${describe(start.href)}`);
        }
        continue;
      }
      throw badRequest(`Artwork could not be fetched from ${describe(target.href)}: HTTP ${res.status}`);
    }
  }

  /** What the bytes are, checked before anyone uses them. */
  async function vetted(bytes: Buffer, url: string): Promise<Buffer> {
    const problem = await artworkBytesProblem(bytes);
    if (problem) throw badRequest(`Artwork ${describe(url.startsWith('data:') ? url.slice(0, 40) : url)} cannot be used: ${problem}`);
    return bytes;
  }

  return async function fetchArtwork(url: string, ctx: ArtworkFetchContext = {}): Promise<Buffer> {
    return vetted(await fetchRaw(url, ctx), typeof url === 'string' ? url.trim() : '');
  };

  async function fetchRaw(url: string, ctx: ArtworkFetchContext): Promise<Buffer> {
    if (typeof url !== 'string' || !url.trim()) throw notAllowed('the URL is empty');
    const raw = url.trim();
    if (/^data:/i.test(raw)) return fromDataUrl(raw);
    if (raw.startsWith('/') && !raw.startsWith('//')) {
      const key = fileKeyOf(raw.split(/[?#]/)[0]);
      if (!key) throw notAllowed(`${describe(raw)} is not a /files/… storage path`);
      return fromStore(key, raw);
    }
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw notAllowed(`${describe(raw)} is not a valid URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw notAllowed(`only http(s), /files/… and data:image URLs are accepted (${parsed.protocol})`);
    const own = new Set(ownOrigins);
    const extra = originOf(ctx.ownOrigin);
    if (extra) own.add(extra);
    if (own.has(parsed.origin)) {
      const key = fileKeyOf(parsed.pathname);
      if (key) return fromStore(key, raw);
    }
    return fromRemote(parsed);
  }
}
