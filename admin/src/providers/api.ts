// Calls to the product API (spec §7): envelope {success, data, error}, token in the Authorization header.
import type { Envelope as ApiEnvelope, FieldProblem } from '../../../common/api/envelope';
import type { UploadAnswer } from '../../../common/api/sites';
import { authHeaders, getToken } from './session';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The refusal's sentence per field key (see fieldErrorsOf). */
  get fieldErrors(): Record<string, string> {
    return fieldErrorsOf(this.body);
  }
}

/**
 * The sentence of each failing field of a refusal body (`details: [{field, message}]`), by field
 * key: what a form shows next to each input. Empty when the refusal is not about fields.
 */
export function fieldErrorsOf(body: unknown): Record<string, string> {
  const details = body && typeof body === 'object' ? (body as { details?: unknown }).details : undefined;
  const errors: Record<string, string> = {};
  if (!Array.isArray(details)) return errors;
  for (const d of details as Partial<FieldProblem>[]) {
    if (d && typeof d.field === 'string' && d.field && typeof d.message === 'string' && !(d.field in errors)) errors[d.field] = d.message;
  }
  return errors;
}

/** Read leniently: a proxy or crash may answer without some fields; a refusal may carry errorMes. */
type Envelope<T> = Partial<ApiEnvelope<T>> & { errorMes?: string };

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Sign the call with this token instead of the stored session's (the framed editor's token from `init`). */
  token?: string;
  /** The user action this call belongs to (Idempotency-Key): the server runs it once per key. */
  idempotencyKey?: string;
  /** Called with the answer's headers (a successful one). */
  onHeaders?: (headers: Headers) => void;
  /** The ETag of the answer the caller holds: the server answers 304 (no data) if it has not changed. */
  ifNoneMatch?: string;
}

async function parseBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// The GETs a screen makes first on a cold load, started as the app's code starts (main.tsx) instead
// of once the shell has rendered and the screen has mounted. Each answers, once, the first api() call
// of the same path signed with the same token, if it comes soon enough; later calls fetch again.
const EARLY_GET_TTL_MS = 30_000;
const earlyGets = new Map<string, { token: string | null; at: number; response: Promise<Response> }>();

/** Starts GET `path` now; api(path) soon after reads this answer instead of asking again. */
export function prefetchGet(path: string): void {
  if (earlyGets.has(path)) return;
  const response = fetch(path, { headers: { Accept: 'application/json', ...authHeaders() } });
  response.catch(() => undefined); // the caller that takes it sees the failure
  earlyGets.set(path, { token: getToken(), at: Date.now(), response });
}

function takeEarlyGet(path: string): Promise<Response> | undefined {
  const hit = earlyGets.get(path);
  if (!hit) return undefined;
  earlyGets.delete(path);
  return hit.token === getToken() && Date.now() - hit.at <= EARLY_GET_TTL_MS ? hit.response : undefined;
}

/** Returns `data` of a successful envelope; throws ApiError carrying the server's `error` text as-is. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, token, idempotencyKey, onHeaders, ifNoneMatch } = options;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(token ? { Authorization: `Bearer ${token}` } : authHeaders()),
  };
  // A FormData body (a file upload) sets its own multipart Content-Type with the boundary.
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  if (ifNoneMatch) headers['If-None-Match'] = ifNoneMatch;
  const early = method === 'GET' && !signal && !token && !ifNoneMatch ? takeEarlyGet(path) : undefined;
  const res = await (early ??
    fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? (body as FormData) : JSON.stringify(body),
      signal,
    }));
  if (res.status === 304 && ifNoneMatch) {
    onHeaders?.(res.headers);
    return undefined as T;
  }
  const parsed = await parseBody(res);
  const envelope = (parsed && typeof parsed === 'object' ? parsed : {}) as Envelope<T>;
  const serverError = envelope.error ?? envelope.errorMes;
  if (!res.ok || envelope.success === false) {
    const message =
      serverError ||
      (typeof parsed === 'string' && parsed) ||
      `Request failed (${res.status}${res.statusText ? ` ${res.statusText}` : ''})`;
    throw new ApiError(message, res.status, parsed);
  }
  onHeaders?.(res.headers);
  return envelope.data as T;
}

/**
 * A GET that sends the ETag of the answer the caller holds: null when the server says nothing
 * changed (304, no body sent), else the new answer and its ETag.
 */
export async function apiIfChanged<T>(path: string, etag: string | null, signal?: AbortSignal): Promise<{ data: T; etag: string | null } | null> {
  let received: string | null = null;
  let unchanged = false;
  const data = await api<T>(path, {
    signal,
    ifNoneMatch: etag ?? undefined,
    onHeaders: (h) => {
      received = h.get('ETag');
      unchanged = etag !== null && received === etag;
    },
  });
  return unchanged || data === undefined ? null : { data, etag: received };
}

/**
 * The stored file's /files/… address after the PUT to a signed upload link. The server's own link
 * answers it; a presigned PUT into the bucket answers nothing, so the address the link came with
 * (X-File-Url) is read once: the server checks the file on that first read and says why it refuses one.
 */
export async function uploadedFileUrl(put: Response, grantedFileUrl: string | null): Promise<string> {
  const parsed = await parseBody(put);
  const answer = (parsed && typeof parsed === 'object' ? parsed : {}) as Partial<Envelope<UploadAnswer>>;
  if (put.ok && answer.success && answer.data?.url) return answer.data.url;
  if (!put.ok || answer.success === false || !grantedFileUrl) {
    throw new Error(answer.error || (typeof parsed === 'string' && /<Message>([^<]+)<\/Message>/.exec(parsed)?.[1]) || `Upload failed (${put.status})`);
  }
  const address = new URL(grantedFileUrl, window.location.href);
  const path = `${address.pathname}${address.search}`;
  const check = await fetch(grantedFileUrl);
  if (!check.ok) {
    const refused = (await parseBody(check)) as Partial<Envelope<unknown>> | undefined;
    throw new Error(refused?.error || `Upload failed (${check.status})`);
  }
  await check.body?.cancel();
  return path;
}

/** The file of a file answer; a JSON answer or an error status is thrown as ApiError with the server's text. */
async function fileOf(res: Response): Promise<Blob> {
  const contentType = res.headers.get('Content-Type') ?? '';
  if (!res.ok || contentType.includes('json')) {
    const parsed = await parseBody(res);
    const envelope = (parsed && typeof parsed === 'object' ? parsed : {}) as Envelope<unknown>;
    const message =
      envelope.error ||
      envelope.errorMes ||
      (typeof parsed === 'string' && parsed) ||
      `Request failed (${res.status}${res.statusText ? ` ${res.statusText}` : ''})`;
    throw new ApiError(message, res.ok ? 400 : res.status, parsed);
  }
  return res.blob();
}

/**
 * POST returning a file (the print PDF). The server answers the file itself, or JSON
 * `{success:false, error}` ("PDF Empty", "Only support 4 pages A5", …), thrown as ApiError.
 */
export async function apiFile(path: string, body: unknown, signal?: AbortSignal): Promise<Blob> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { Accept: 'application/pdf, application/json', 'Content-Type': 'application/json', ...authHeaders() },
    body: JSON.stringify(body),
    signal,
  });
  return fileOf(res);
}

/** GET returning a file (a batch's sheets); a refusal is thrown as ApiError like apiFile's. */
export async function apiGetFile(path: string, signal?: AbortSignal): Promise<Blob> {
  return fileOf(await fetch(path, { headers: { Accept: 'application/pdf, application/json', ...authHeaders() }, signal }));
}
