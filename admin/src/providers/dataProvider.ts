import { fetchUtils, HttpError, type DataProvider } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import { api } from './api';
import { authHeaders } from './session';

/** Admin REST (ra-data-simple-rest protocol) with the token, and the server's `error` text as the message. */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  for (const [name, value] of Object.entries(authHeaders())) headers.set(name, value);
  try {
    return await fetchUtils.fetchJson(url, { ...options, headers });
  } catch (error) {
    if (error instanceof HttpError) {
      const body = error.body as { error?: unknown } | undefined;
      if (body && typeof body.error === 'string' && body.error) {
        throw new HttpError(body.error, error.status, error.body);
      }
    }
    throw error;
  }
}

export interface UserRecord {
  id: number | string;
  firstName: string;
  lastName: string;
  email: string;
  role: 'admin' | 'user';
  siteId: number | string;
  createdAt?: string;
}

export interface UpsertUserInput {
  id?: number | string;
  firstName: string;
  lastName: string;
  email: string;
  password?: string;
  role: 'admin' | 'user';
  siteId: number | string;
}

interface UploadAnswer {
  key: string;
  url: string;
}

const restProvider = simpleRestProvider('/api/admin', httpClient);

export const dataProvider = {
  ...restProvider,

  /** POST /api/users/upsert: creates or updates a user of a site. */
  upsertUser(input: UpsertUserInput): Promise<UserRecord> {
    return api<UserRecord>('/api/users/upsert', { method: 'POST', body: input });
  },

  /**
   * Presigned upload (spec §7): ask for a signed URL, PUT the file there, get back its public path.
   * Keys are `<folder>/<file name>`; the server adds the timestamp.
   */
  async uploadFile(file: File, folder: string): Promise<string> {
    const contentType = file.type || 'application/octet-stream';
    const signedUrl = await api<string>('/api/users/me/get-upload-url', {
      method: 'POST',
      body: { serverSidePath: `${folder}/${file.name}`, contentType },
    });
    const res = await fetch(signedUrl, { method: 'PUT', body: file, headers: { 'Content-Type': contentType } });
    const answer = (await res.json().catch(() => ({}))) as { success?: boolean; data?: UploadAnswer; error?: string };
    if (!res.ok || !answer.success || !answer.data?.url) {
      throw new Error(answer.error || `Upload failed (${res.status})`);
    }
    return answer.data.url;
  },
} satisfies DataProvider;

export type AppDataProvider = typeof dataProvider;
