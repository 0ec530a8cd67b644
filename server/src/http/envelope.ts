// The spec's response envelopes: {success, data, error}; lists {list, hasNext, total}.
import type { Response } from 'express';

export interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: string;
  details?: unknown;
}

export interface Page<T> {
  list: T[];
  hasNext: boolean;
  total: number;
}

export function ok<T>(res: Response, data: T, status = 200): void {
  res.status(status).json({ success: true, data } satisfies Envelope<T>);
}

export function fail(res: Response, status: number, error: string, details?: unknown): void {
  const body: Envelope<never> = { success: false, error };
  if (details !== undefined) body.details = details;
  res.status(status).json(body);
}
