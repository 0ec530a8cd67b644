// No fuzzed request may reach the internet: in this test process every socket to an address other
// than loopback, and every DNS lookup of a name other than localhost, is refused and recorded.
// (The worlds have no outside-service settings; this makes sure a fuzzed body cannot add one.)
import dns from 'node:dns';
import net from 'node:net';

/** Hosts something tried to reach, in order. */
export const outbound: string[] = [];

const loopback = (host: string) => /^(localhost|127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/i.test(host.replace(/^\[|\]$/g, ''));

let installed = false;

export function blockInternet(): void {
  if (installed) return;
  installed = true;
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const opts = (Array.isArray(first) ? first[0] : first) as { host?: string; path?: string; lookup?: (...a: unknown[]) => void } | number | string;
    let host = 'localhost';
    if (typeof opts === 'object' && opts) host = opts.path ? 'localhost' : (opts.host ?? 'localhost');
    else if (typeof opts === 'number' || (typeof opts === 'string' && /^\d+$/.test(opts))) host = typeof args[1] === 'string' ? args[1] : 'localhost';
    const refuse = (what: string) => {
      outbound.push(what);
      process.nextTick(() => this.destroy(Object.assign(new Error(`blocked by the security suite: no connections to ${what}`), { code: 'ECONNREFUSED' })));
      return this;
    };
    const bare = host.replace(/^\[|\]$/g, '');
    if (net.isIP(bare)) {
      if (!loopback(bare)) return refuse(bare);
    } else if (typeof opts === 'object' && opts && typeof opts.lookup === 'function') {
      // A caller-supplied lookup (the artwork fetcher pins the vetted address): check what it gives.
      const given = opts.lookup;
      opts.lookup = ((hostname: unknown, o: unknown, cb: (err: Error | null, address?: unknown, family?: number) => void) =>
        given(hostname, o, (err: Error | null, address?: unknown, family?: number) => {
          const list = Array.isArray(address) ? address.map((a: { address: string }) => a.address) : [String(address)];
          const bad = list.find((a) => !loopback(a));
          if (!err && bad) {
            outbound.push(`${String(hostname)} → ${bad}`);
            return cb(Object.assign(new Error(`blocked by the security suite: no connections to ${bad}`), { code: 'ECONNREFUSED' }));
          }
          cb(err, address, family);
        })) as (...a: unknown[]) => void;
    }
    // A name without a lookup goes through dns.lookup, refused below for anything but localhost.
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  const lookup = dns.lookup;
  dns.lookup = function (hostname: string, ...rest: unknown[]) {
    if (!loopback(hostname) && !net.isIP(hostname)) {
      outbound.push(hostname);
      const cb = rest[rest.length - 1] as (err: Error) => void;
      process.nextTick(() => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (blocked by the security suite)`), { code: 'ENOTFOUND', hostname })));
      return {} as never;
    }
    return (lookup as (...a: unknown[]) => unknown)(hostname, ...rest);
  } as typeof dns.lookup;
  const lookupAsync = dns.promises.lookup;
  dns.promises.lookup = async function (hostname: string, options?: unknown) {
    if (!loopback(hostname) && !net.isIP(hostname)) {
      outbound.push(hostname);
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (blocked by the security suite)`), { code: 'ENOTFOUND', hostname });
    }
    return (lookupAsync as (h: string, o?: unknown) => Promise<unknown>)(hostname, options);
  } as typeof dns.promises.lookup;
}
