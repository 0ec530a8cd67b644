import type { User } from '../../../common/api/sites';
// The signed-in user's token and public info, kept in localStorage (spec §6).

export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
/** Fired on window whenever the session starts or ends, so site branding can be refetched. */
export const SESSION_CHANGED_EVENT = 'presswork:session-changed';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function getUser(): User | null {
  const raw = localStorage.getItem(USER_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as User;
  } catch {
    return null;
  }
}

export function saveSession(token: string, user: User): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  window.dispatchEvent(new Event(SESSION_CHANGED_EVENT));
}

export function saveUser(user: User): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function clearSession(): void {
  const hadSession = getToken() !== null || getUser() !== null;
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  if (hadSession) window.dispatchEvent(new Event(SESSION_CHANGED_EVENT));
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}
