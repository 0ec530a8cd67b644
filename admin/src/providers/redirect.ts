// Where to go after login. Only same-origin relative paths are accepted, so a crafted
// `?redirect=//evil.com` or `?redirect=https://evil.com` can never send a user off-site.
export function safeRedirectTarget(raw: string | null | undefined): string {
  if (!raw) return '/';
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  // Control characters and backslashes are normalised away by some browsers; refuse them.
  if (raw.includes('\\') || [...raw].some((ch) => ch.charCodeAt(0) < 0x20)) return '/';
  try {
    const url = new URL(raw, window.location.origin);
    if (url.origin !== window.location.origin) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}

/**
 * The login URL that brings the user back to `path` (path + search) afterwards. A `site=<slug>` of
 * that path is kept on the login URL, so a client's link still shows their branded sign-in page.
 */
export function loginUrlFor(path: string): string {
  const site = path ? new URLSearchParams(path.split('?')[1]?.split('#')[0] ?? '').get('site')?.trim() : null;
  const params = new URLSearchParams();
  if (site) params.set('site', site);
  if (path && path !== '/' && !path.startsWith('/login')) params.set('redirect', path);
  const query = params.toString();
  return query ? `/login?${query}` : '/login';
}

export function currentPath(): string {
  return window.location.pathname + window.location.search;
}
