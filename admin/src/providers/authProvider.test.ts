import { describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { ADMIN, jsonResponse, signIn, fakeFetch } from '../test/helpers';
import { authProvider, prefetchSession } from './authProvider';
import { httpClient } from './dataProvider';
import { getToken } from './session';

describe('authProvider', () => {
  it('checkAuth without a session rejects with a redirect back to the current page', async () => {
    window.history.pushState({}, '', '/sites/3?tab=users');
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({
      redirectTo: '/login?redirect=%2Fsites%2F3%3Ftab%3Dusers',
    });
    window.history.pushState({}, '', '/');
  });

  it('checkAuth with a token the server rejects (401 on /me) clears the session and redirects', async () => {
    signIn(ADMIN, 'expired-token');
    fakeFetch(() => jsonResponse({ success: false, error: 'Invalid token' }, 401));
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: expect.stringMatching(/^\/login/) });
    expect(getToken()).toBeNull();
  });

  it('prefetchSession checks a stored session at once; checkAuth then reuses that answer (one /me call)', async () => {
    signIn(ADMIN, 'prefetched-token');
    const { calls } = fakeFetch(() => jsonResponse({ success: true, data: ADMIN }));
    prefetchSession();
    expect(calls.map((c) => c.url)).toEqual(['/api/users/me']);
    await authProvider.checkAuth({});
    expect(calls).toHaveLength(1);
  });

  it('prefetchSession without a session calls nothing', () => {
    const { calls } = fakeFetch(() => jsonResponse({ success: true, data: ADMIN }));
    prefetchSession();
    expect(calls).toHaveLength(0);
  });

  it('logs out on 401 but not on 403', async () => {
    await expect(authProvider.checkError({ status: 401 })).rejects.toBeDefined();
    await expect(authProvider.checkError({ status: 403 })).resolves.toBeUndefined();
  });

  it('logout revokes the token on the server, then clears local storage', async () => {
    signIn(ADMIN, 'tok');
    const { calls } = fakeFetch(() => jsonResponse({ success: true, data: null }));
    await authProvider.logout({});
    expect(calls[0]).toMatchObject({ url: '/api/users/logout', method: 'POST' });
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok');
    expect(getToken()).toBeNull();
  });
});

describe('httpClient', () => {
  it('sends the token and surfaces the server error text as the HttpError message', async () => {
    signIn(ADMIN, 'tok');
    const { calls } = fakeFetch(() => jsonResponse({ success: false, error: 'Slug already in use' }, 409));
    const failure = httpClient('/api/admin/sites', { method: 'POST', body: '{}' });
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toMatchObject({ message: 'Slug already in use', status: 409 });
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok');
  });
});
