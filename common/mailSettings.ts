// How a mail server and a sender are written in settings (SMTP_URL, ECARD_FROM): one rule for the
// server, which sends with them, and the site form, which checks them as they are typed.

export interface MailAddress {
  name?: string;
  address: string;
}

/** The only query parameter: `?tls=insecure` accepts any certificate (loopback test servers only). */
export const TLS_INSECURE = 'insecure';

/** undefined when the URL can name a mail server; else what is wrong with it, as a sentence. */
export function smtpUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return 'The mail server URL is not a URL: write it as smtp://user:password@host:port or smtps://…';
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') return `The mail server URL must start with smtp:// or smtps:// (not ${u.protocol}//)`;
  if (!u.hostname) return 'The mail server URL has no host: write it as smtp://host:port';
  if (u.password && !u.username) return 'The mail server URL has a password but no user name';
  if (u.pathname && u.pathname !== '/') return 'The mail server URL must not have a path (only smtp://user:password@host:port)';
  for (const [key, value] of u.searchParams) {
    if (key !== 'tls' || value !== TLS_INSECURE) return `The mail server URL has an unknown option "${key}=${value}" (only tls=insecure, for test servers)`;
  }
  try {
    decodeURIComponent(u.username);
    decodeURIComponent(u.password);
  } catch {
    return 'The mail server URL has a badly encoded user name or password (use %40 for @, %3A for :)';
  }
  return undefined;
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** A sender as a setting writes it — `cards@hope.org` or `Hope Charity <cards@hope.org>` — else undefined. */
export function parseMailAddress(text: string | undefined): MailAddress | undefined {
  const t = (text ?? '').trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(t);
  const address = (named ? named[2] : t).trim();
  if (!EMAIL.test(address)) return undefined;
  const name = named?.[1].trim().replace(/^"(.*)"$/, '$1').trim();
  return name ? { name, address } : { address };
}
