import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { AdminContext, defaultI18nProvider, Notification, type AuthProvider, type DataProvider } from 'react-admin';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import type { User } from '../../../common/api/sites';
import { authProvider as realAuthProvider } from '../providers/authProvider';
import { dataProvider as realDataProvider } from '../providers/dataProvider';
import { saveSession } from '../providers/session';

export const ADMIN: User = {
  id: 1,
  firstName: 'Ada',
  lastName: 'Admin',
  email: 'admin@presswork.local',
  role: 'admin',
  siteId: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
};

export const USER: User = {
  id: 2,
  firstName: 'Uma',
  lastName: 'User',
  email: 'user@presswork.local',
  role: 'user',
  siteId: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
};

export function signIn(user: User, token = 'test-token') {
  saveSession(token, user);
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** Stubs global fetch with a handler; returns the recorded calls. */
export function fakeFetch(handler: (call: RecordedCall) => Response | Promise<Response>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    let body: unknown = init.body;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const call = { url, method: (init.method ?? 'GET').toUpperCase(), headers: new Headers(init.headers), body };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export function LocationDisplay() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function renderInAdmin(
  ui: ReactNode,
  {
    path = '/',
    routePath = '*',
    authProvider = realAuthProvider,
    dataProvider = realDataProvider,
  }: { path?: string; routePath?: string; authProvider?: AuthProvider; dataProvider?: DataProvider } = {},
) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={defaultI18nProvider}>
        <Routes>
          <Route path={routePath} element={ui} />
          <Route path="/after/*" element={<LocationDisplay />} />
          <Route path="/" element={<LocationDisplay />} />
        </Routes>
        <Notification />
      </AdminContext>
    </MemoryRouter>,
  );
}
