import type { AuthProvider, UserIdentity } from 'react-admin';
import type { LoginAnswer, User } from '../../../common/api/sites';
import { api, ApiError } from './api';
import { canAccess } from './canAccess';
import { currentPath, loginUrlFor } from './redirect';
import { clearSession, getToken, getUser, saveSession, saveUser } from './session';


export interface Credentials {
  email: string;
  password: string;
}

// The "me" call validates a stored token once per token per page load (spec §6), not on every screen.
let meCheck: { token: string; promise: Promise<void> } | null = null;

function verifyToken(token: string): Promise<void> {
  if (meCheck?.token !== token) {
    const promise = api<User>('/api/users/me').then(
      (user) => {
        if (getToken() === token) saveUser(user);
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) {
          if (getToken() === token) clearSession();
          throw error;
        }
        // Server unreachable or 5xx: keep the session; data calls will surface the problem.
      },
    );
    meCheck = { token, promise };
  }
  return meCheck.promise;
}

/** Starts the check of a stored session at page load, so the first screen's checkAuth finds it (nearly) answered. */
export function prefetchSession(): void {
  const token = getToken();
  if (token && getUser()) verifyToken(token).catch(() => undefined);
}

function notSignedIn() {
  // message: false → react-admin redirects without an "authentication required" toast.
  return { redirectTo: loginUrlFor(currentPath()), message: false as const };
}

export const authProvider: AuthProvider = {
  async login({ email, password }: Credentials) {
    const answer = await api<LoginAnswer>('/api/users/login', { method: 'POST', body: { email, password } });
    meCheck = { token: answer.token, promise: Promise.resolve() };
    saveSession(answer.token, answer.publicInfo);
    return answer.publicInfo;
  },

  async logout() {
    if (getToken()) {
      // Revoke server-side; a failure must never keep the user signed in locally.
      await api('/api/users/logout', { method: 'POST' }).catch(() => undefined);
    }
    meCheck = null;
    clearSession();
  },

  async checkAuth() {
    const token = getToken();
    if (!token || !getUser()) throw notSignedIn();
    try {
      await verifyToken(token);
    } catch {
      throw notSignedIn();
    }
  },

  // Only 401 ends the session; 403 is "not allowed", shown by the caller.
  async checkError(error: { status?: number } | undefined) {
    if (error?.status === 401) {
      meCheck = null;
      throw { redirectTo: loginUrlFor(currentPath()), message: 'Your session has expired, please sign in again' };
    }
  },

  async getIdentity(): Promise<UserIdentity> {
    const user = getUser();
    if (!user) throw new Error('Not signed in');
    return {
      id: user.id,
      fullName: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email,
      firstName: user.firstName,
      role: user.role,
      siteId: user.siteId,
    };
  },

  async getPermissions() {
    return getUser()?.role ?? null;
  },

  async canAccess({ resource, action, record }) {
    const user = getUser();
    return canAccess(user?.role, { resource, action, record }, user?.id);
  },
};
