// The site editor's server for component tests: one site (id 2) with these settings.env
// variables, no users; a save answers the saved record.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, jsonResponse, fakeFetch, type RecordedCall } from './helpers';

export type Env = Array<{ key: string; value: string }>;

export const demoSite = (env: Env) => ({ id: 2, name: 'Presswork Demo', slug: 'demo', logo: null, theme: { mainColor: '#e91e63' }, settings: { env }, createdAt: '2025-03-07T10:00:00.000Z' });

export function answerSite(env: Env) {
  return fakeFetch((call) => {
    if (call.method === 'PUT' && call.url === '/api/admin/sites/2') return jsonResponse(call.body);
    if (call.url.startsWith('/api/admin/sites/2')) return jsonResponse(demoSite(env));
    if (call.url.startsWith('/api/admin/users')) return jsonResponse([], 200, { 'Content-Range': 'users 0-0/0' });
    return jsonResponse({ success: true, data: ADMIN });
  });
}

export const siteSaves = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/api/admin/sites/2');

/** A section of the site form (closed until opened, its inputs not drawn till then), opened; answers the section. */
export async function openSection(title: string) {
  const section = await screen.findByRole('region', { name: title });
  await userEvent.click(within(section).getByRole('button', { name: (name) => name.startsWith(title) }));
  return section;
}
