// zod in: parse a request part or answer 400 naming the field that is wrong (fieldErrors.ts words it).
import express from 'express';
import { z } from 'zod';
import { HttpError } from './errors';
import { fieldErrors, zodProblem, zodProblems } from './fieldErrors';
import { canBeRowId } from '../db';

/**
 * Told of every schema a request part is parsed with: how the API reference's test holds each
 * route's declared schemas to the ones its handler really uses. Empty in the running app.
 */
export const parseWatchers = new Set<(schema: z.ZodType, value: unknown) => void>();

export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  for (const watch of parseWatchers) watch(schema, value);
  const result = schema.safeParse(value ?? {}, { error: zodProblem });
  if (result.success) return result.data;
  throw fieldErrors(zodProblems(result.error));
}

/** A positive integer id from a path parameter, else 404 (an id that cannot exist is unknown). */
export function idParam(value: unknown): number {
  const s = String(value ?? '');
  if (!/^[1-9]\d{0,14}$/.test(s) || !canBeRowId(Number(s))) throw new HttpError(404, 'Not found');
  return Number(s);
}

/** A record id in a body or query: a whole number a row can have (a larger one is refused here, never sent to the database). */
export const rowId = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .positive('must be a whole number')
  .refine(canBeRowId, 'is not an id any record can have');

/** Deepest nesting of arrays and objects a JSON body may have (deeper → 400 before parsing). */
export const MAX_JSON_DEPTH = 64;

/**
 * Nesting depth of JSON text, read byte by byte (strings skipped, no parsing). A body nested
 * thousands of levels deep parses, but overflows the stack later in JSON.stringify, zod or a
 * recursive walk: it is refused at the door instead.
 */
export function jsonDepth(bytes: Uint8Array): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** Whether JSON text holds the escape \u0000 (a NUL character in a string), not merely an escaped backslash before "u0000". */
export function jsonHasNul(buf: Buffer): boolean {
  for (let i = buf.indexOf('\\u0000'); i !== -1; i = buf.indexOf('\\u0000', i + 1)) {
    let backslashes = 0;
    for (let j = i; j >= 0 && buf[j] === 0x5c; j--) backslashes++;
    if (backslashes % 2 === 1) return true;
  }
  return false;
}

/** The UTF-16 unit of a JSON escape `\uXXXX` starting at `at` (the backslash), or -1 when there is none. */
function escapedUnit(buf: Buffer, at: number): number {
  if (buf[at] !== 0x5c || buf[at + 1] !== 0x75 || at + 6 > buf.length) return -1;
  const hex = buf.toString('latin1', at + 2, at + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : -1;
}

/**
 * Whether JSON text holds half of a surrogate pair on its own (`\ud800` with no partner): such a
 * string is not Unicode, PostgreSQL refuses it in a json column and it cannot be written as UTF-8.
 */
export function jsonHasLoneSurrogate(buf: Buffer): boolean {
  for (let i = buf.indexOf('\\u'); i !== -1; i = buf.indexOf('\\u', i + 1)) {
    let backslashes = 0;
    for (let j = i; j >= 0 && buf[j] === 0x5c; j--) backslashes++;
    if (backslashes % 2 === 0) continue; // an escaped backslash followed by plain "u"
    const unit = escapedUnit(buf, i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit >= 0xdc00) return true; // a low half with no high half before it
    const next = escapedUnit(buf, i + 6);
    if (next < 0xdc00 || next > 0xdfff) return true;
    i += 6; // the pair is whole: its low half is not looked at again
  }
  return false;
}

/**
 * body-parser `verify`: refuses JSON nested deeper than MAX_JSON_DEPTH, and JSON holding a NUL
 * character or half a surrogate pair (PostgreSQL cannot store either; refused on every database
 * alike), with a 400.
 */
export function refuseDeepJson(_req: unknown, _res: unknown, buf: Buffer): void {
  if (jsonDepth(buf) > MAX_JSON_DEPTH) throw new HttpError(400, `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels of arrays and objects)`);
  if (jsonHasNul(buf)) throw new HttpError(400, 'The request body holds a NUL character (\\u0000), which cannot be stored');
  if (jsonHasLoneSurrogate(buf)) throw new HttpError(400, 'The request body holds half of a Unicode surrogate pair (such as \\ud800 alone), which is not text and cannot be stored');
}

/** The JSON body parser of every JSON surface: size limit, and depth limit. */
export function jsonBody(limit: string | number, options: Omit<NonNullable<Parameters<typeof express.json>[0]>, 'limit' | 'verify'> = {}) {
  return express.json({ ...options, limit, verify: refuseDeepJson });
}

/** 0/1 accepted beside booleans (docs/print-production.md). */
export const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: 'must be true or false' })
  .transform((v) => v === true || v === 1 || v === '1');

/** A calendar day, YYYY-MM-DD, that exists. */
export const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD').refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'is not a real date');
