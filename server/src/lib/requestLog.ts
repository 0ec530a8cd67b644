// What the request log may say about a request: its credentials never reach the log (journald keeps
// logs for weeks, and whoever reads them is not whoever may call the API). Headers that carry one
// and query values that are one (a webhook key, an OAuth code, a signed URL's signature) are masked.
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-postback-token', 'x-api-key', 'proxy-authorization']);
const SECRET_QUERY = /^(webhookkey|code|state|token|access_token|refresh_token|signature|sig|key|secret|password|x-amz-signature|x-amz-credential)$/i;
export const MASKED = '[redacted]';

/** The URL with every secret query value masked (the path and other parameters kept for tracing). */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is kept as written; it is matched as is.
      }
      return eq !== -1 && SECRET_QUERY.test(decoded) ? `${name}=${MASKED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

interface LoggedRequest {
  url?: string;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  [k: string]: unknown;
}

/** pino-http's `req` serializer: pino's standard fields, credentials masked. */
export function requestForLog(req: LoggedRequest): LoggedRequest {
  const out: LoggedRequest = { ...req };
  if (typeof req.url === 'string') out.url = maskUrl(req.url);
  if (req.query && typeof req.query === 'object') {
    out.query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, SECRET_QUERY.test(k) ? MASKED : v]));
  }
  if (req.headers && typeof req.headers === 'object') {
    out.headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) ? MASKED : v]));
  }
  return out;
}
