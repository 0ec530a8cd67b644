// The spec's response envelopes: {success, data, error}; lists {list, hasNext, total}.
import type { Response } from 'express';
import type { Envelope, ListPage } from '../../../common/api/envelope';

// The shapes are shared with the admin (common/api), so neither side can change them alone.
export type { Envelope };
export type Page<T> = ListPage<T>;

export function ok<T>(res: Response, data: T, status = 200): void {
  res.status(status).json({ success: true, data } satisfies Envelope<T>);
}

/** `ok` for data already serialised (an answer kept between asks is serialised once). */
export function okSerialised(res: Response, dataJson: string, status = 200): void {
  res.status(status).type('application/json').send(`{"success":true,"data":${dataJson}}`);
}

export function fail(res: Response, status: number, error: string, details?: unknown, field?: string): void {
  const body: Envelope<never> = { success: false, error };
  if (field !== undefined) body.field = field;
  if (details !== undefined) body.details = details;
  res.status(status).json(body);
}

/** A refusal that still answers data (a readiness probe's 503 lists every check in `data`). */
export function failWithData<T>(res: Response, status: number, error: string, data: T): void {
  res.status(status).json({ success: false, error, data } satisfies Envelope<T>);
}
