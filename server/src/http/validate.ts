// zod in: parse a request part or answer 400 naming the field that is wrong.
import type { z } from 'zod';
import { HttpError } from './errors';

export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ field: i.path.join('.') || '(body)', message: i.message }));
  const first = issues[0];
  throw new HttpError(400, first.field === '(body)' ? first.message : `${first.field}: ${first.message}`, issues);
}

/** A positive integer id from a path parameter, else 404 (an id that cannot exist is unknown). */
export function idParam(value: unknown): number {
  const s = String(value ?? '');
  if (!/^[1-9]\d{0,14}$/.test(s)) throw new HttpError(404, 'Not found');
  return Number(s);
}
