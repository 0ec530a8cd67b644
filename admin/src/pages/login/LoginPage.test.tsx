import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, jsonResponse, renderInAdmin, fakeFetch } from '../../test/helpers';
import { getToken, getUser } from '../../providers/session';
import { SiteInfoProvider } from '../../layout/SiteInfoContext';
import { LoginPage } from './LoginPage';

function renderLogin(search = '') {
  return renderInAdmin(<LoginPage />, { path: `/login${search}`, routePath: '/login' });
}

function answerLogin() {
  return fakeFetch((call) =>
    call.url === '/api/users/login'
      ? jsonResponse({ success: true, data: { token: 'tok-123', publicInfo: ADMIN } })
      : jsonResponse({ success: true, data: { data: null } }),
  );
}

async function signInWith(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText(/email/i), email);
  if (password) await user.type(screen.getByLabelText(/password/i), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginPage', () => {
  it.each([
    ['', ''],
    ['admin@presswork.local', ''],
    ['', 'presswork'],
  ])('asks for both fields and sends nothing (email %j, password %j)', async (email, password) => {
    const { fetchMock } = fakeFetch(() => jsonResponse({}));
    renderLogin();
    await signInWith(email, password);
    expect(await screen.findByText('Please input your email and password')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the server error text as-is', async () => {
    const { calls } = fakeFetch(() => jsonResponse({ success: false, error: 'Wrong email or password' }, 401));
    renderLogin();
    await signInWith('admin@presswork.local', 'nope');
    expect(await screen.findByText('Wrong email or password')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      url: '/api/users/login',
      method: 'POST',
      body: { email: 'admin@presswork.local', password: 'nope' },
    });
    expect(getToken()).toBeNull();
  });

  it('shows the thrown error text when the request itself fails', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    renderLogin();
    await signInWith('admin@presswork.local', 'presswork');
    expect(await screen.findByText('Failed to fetch')).toBeInTheDocument();
  });

  it('stores the token and user, plays the welcome, then goes to the redirect parameter', async () => {
    vi.stubGlobal('innerWidth', 1024);
    answerLogin();
    renderLogin(`?redirect=${encodeURIComponent('/after/sites?page=2')}`);
    await signInWith('admin@presswork.local', 'presswork');
    expect(await screen.findByText('Welcome, Ada')).toBeInTheDocument();
    expect(getToken()).toBe('tok-123');
    expect(getUser()).toMatchObject({ email: 'admin@presswork.local', role: 'admin' });
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/after/sites?page=2'), {
      timeout: 3000,
    });
  });

  it('skips the welcome animation below 480px wide', async () => {
    vi.stubGlobal('innerWidth', 400);
    answerLogin();
    renderLogin(`?redirect=${encodeURIComponent('/after/sites')}`);
    await signInWith('admin@presswork.local', 'presswork');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/after/sites'), { timeout: 500 });
    expect(screen.queryByText('Welcome, Ada')).not.toBeInTheDocument();
  });

  it('goes home without a redirect parameter', async () => {
    vi.stubGlobal('innerWidth', 400);
    answerLogin();
    renderLogin();
    await signInWith('admin@presswork.local', 'presswork');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it.each(['//evil.com', 'https://evil.com/steal', '/\\evil.com', 'javascript:alert(1)'])(
    'never follows an off-site redirect (%s)',
    async (target) => {
      vi.stubGlobal('innerWidth', 400);
      answerLogin();
      renderLogin(`?redirect=${encodeURIComponent(target)}`);
      await signInWith('admin@presswork.local', 'presswork');
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    },
  );

  it('/login?site=<slug> asks for that site and shows its name and colour', async () => {
    const hope = { id: 2, name: 'Hope Harbour Charity', slug: 'hope-harbour', logo: null, theme: { mainColor: '#1e88e5' }, features: { sync: true } };
    const demo = { id: 1, name: 'Presswork Demo', slug: 'demo', logo: null, theme: { mainColor: '#e91e63' }, features: { sync: false } };
    const { calls } = fakeFetch((call) => jsonResponse({ success: true, data: { data: call.url.includes('site=hope-harbour') ? hope : demo } }));
    renderInAdmin(
      <SiteInfoProvider>
        <LoginPage />
      </SiteInfoProvider>,
      { path: '/login?site=hope-harbour', routePath: '/login' },
    );
    expect(await screen.findByRole('heading', { name: 'Hope Harbour Charity' })).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/api/sites/info?site=hope-harbour');
    expect(screen.getByTestId('sign-in-card')).toHaveStyle({ borderTopColor: '#1e88e5' });
  });
});
