// A stubbed server for the site editor's section tests: one site (id 2) with the given settings.env.
import { ADMIN, jsonResponse, stubFetch, type RecordedCall } from './helpers';

export type Env = Array<{ key: string; value: string }>;

export const siteWithEnv = (env: Env) => ({ id: 2, name: 'Presswork Demo', slug: 'demo', logo: null, theme: { mainColor: '#e91e63' }, settings: { env }, createdAt: '2025-03-07T10:00:00.000Z' });

/** Answers the editor's reads with the site, and a save (PUT) with what was sent. */
export function stubSiteEdit(env: Env) {
  return stubFetch((call) => {
    if (call.method === 'PUT' && call.url === '/api/admin/sites/2') return jsonResponse(call.body);
    if (call.url.startsWith('/api/admin/sites/2')) return jsonResponse(siteWithEnv(env));
    if (call.url.startsWith('/api/admin/users')) return jsonResponse([], 200, { 'Content-Range': 'users 0-0/0' });
    return jsonResponse({ success: true, data: ADMIN });
  });
}

export const siteSaves = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/api/admin/sites/2');
