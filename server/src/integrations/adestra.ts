// Adestra REST client (…/api/rest/1, `Authorization: TOKEN <token>`): contacts upserted into a
// core table with dedupe on email, list membership added and removed, contacts searched, lists
// read. Errors are typed (401 bad token or {"error":"ip"}, 400 rejected email, 404, 5xx).
// Wire format: docs/connect-raisers-edge-adestra.md (Adestra).
import { answerError, createHttp, IntegrationError, type HttpAnswer, type HttpSettings } from './crmHttp';

export interface AdestraSettings {
  /** REST base, e.g. https://app.adestra.com/api/rest/1 */
  baseUrl: string;
  token: string;
  tableId: string;
}

export interface AdestraContact {
  id: number | string;
  email?: string;
  [field: string]: unknown;
}

/** A contact search's answer: `{contacts:[…]}` (the clients seen), a bare array, or `{data:[…]}`. */
export function contactsOf(body: unknown): AdestraContact[] {
  if (Array.isArray(body)) return body as AdestraContact[];
  const b = (body ?? {}) as { contacts?: unknown; data?: unknown };
  if (Array.isArray(b.contacts)) return b.contacts as AdestraContact[];
  if (Array.isArray(b.data)) return b.data as AdestraContact[];
  return [];
}

export function createAdestraClient(settings: AdestraSettings, httpSettings: HttpSettings) {
  const http = createHttp('adestra', httpSettings);
  const base = settings.baseUrl.replace(/\/$/, '');
  for (const [key, value] of Object.entries({ ADESTRA_BASE_URL: settings.baseUrl, ADESTRA_TOKEN: settings.token, ADESTRA_TABLE_ID: settings.tableId })) {
    if (!value) throw new IntegrationError('adestra', 'config', `${key} is not set for this site`);
  }

  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<HttpAnswer & { url: string }> {
    const url = `${base}${path}`;
    const headers: Record<string, string> = { Authorization: `TOKEN ${settings.token}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    // DELETE of a list membership is idempotent; a contact upsert is too (dedupe on email).
    const answer = await http.send({ method, url, headers, body: body === undefined ? undefined : JSON.stringify(body), idempotent: true });
    if (answer.status === 401) {
      const ip = (answer.json as { error?: string })?.error === 'ip';
      throw new IntegrationError('adestra', 'auth', ip ? 'Adestra refused this server\'s IP address (401 {"error":"ip"})' : 'Adestra refused the API token (401)', { status: 401, url, body: answer.json });
    }
    return { ...answer, url };
  }

  const fail = (answer: HttpAnswer & { url: string }, method: string, what: string) => answerError('adestra', { method, url: answer.url }, answer, what);

  return {
    /** Create or update (dedupe on email) a contact of the core table; optionally put it on a list. */
    async upsertContact(contactData: Record<string, unknown>, listId?: string): Promise<AdestraContact> {
      const body: Record<string, unknown> = { table_id: Number(settings.tableId) || settings.tableId, contact_data: contactData, dedupe_field: 'email' };
      if (listId) body.options = { list_id: Number(listId) || listId };
      const answer = await call('POST', '/contacts', body);
      if (answer.status !== 201 && answer.status !== 200) throw fail(answer, 'POST', 'contact upsert');
      return answer.json as AdestraContact;
    },

    async addToList(contactId: string | number, listId: string): Promise<void> {
      const answer = await call('POST', `/contacts/${encodeURIComponent(String(contactId))}/lists/${encodeURIComponent(listId)}`);
      if (answer.status >= 300) throw fail(answer, 'POST', 'list add');
    },

    /** Removing a contact that is not on the list is not an error. */
    async removeFromList(contactId: string | number, listId: string): Promise<void> {
      const answer = await call('DELETE', `/contacts/${encodeURIComponent(String(contactId))}/lists/${encodeURIComponent(listId)}`);
      if (answer.status >= 300 && answer.status !== 404) throw fail(answer, 'DELETE', 'list remove');
    },

    /** Contacts of the core table matching every field of `search` (e.g. {email}). */
    async searchContacts(search: Record<string, unknown>): Promise<AdestraContact[]> {
      const answer = await call('GET', `/core_tables/${encodeURIComponent(settings.tableId)}/contacts?${new URLSearchParams({ search: JSON.stringify(search) })}`);
      if (answer.status !== 200) throw fail(answer, 'GET', 'contact search');
      return contactsOf(answer.json);
    },

    async getList(listId: string): Promise<Record<string, unknown> | undefined> {
      const answer = await call('GET', `/lists/${encodeURIComponent(listId)}`);
      if (answer.status === 404) return undefined;
      if (answer.status !== 200) throw fail(answer, 'GET', 'list');
      return answer.json as Record<string, unknown>;
    },

    /** A raw GET for the connectivity test call. */
    rawGet: (path: string) => call('GET', path),
    /** Where a contact can be looked at (the REST resource; the platform's own UI address is not public). */
    contactUrl: (id: string | number) => `${base}/contacts/${encodeURIComponent(String(id))}`,
    exportUrl: (n: number) => `${base}/exports/${n}`,
  };
}

export type AdestraClient = ReturnType<typeof createAdestraClient>;
