// Sends one fuzzed request to the in-process app and checks the answer: no 5xx, no hang, no stack
// trace / file path / SQL text in the body, errors in the spec's envelope. A failure throws an error
// that names the request (method, URL, headers, body excerpt) and the answer.
import type supertest from 'supertest';
import type { BodyCase } from './arbitraries';

/** A request that takes longer than this is reported as a hang (a detector, not a speed check). */
export const HANG_MS = Number(process.env.FUZZ_HANG_MS ?? 10_000);

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: BodyCase;
}

export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

const excerpt = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

export function describeRequest(r: FuzzRequest): string {
  const body =
    r.body.kind === 'none' ? '(no body)' : r.body.kind === 'json' ? `JSON ${excerpt(JSON.stringify(r.body.value) ?? 'undefined')}` : `${r.body.contentType} [${r.body.note}] ${excerpt(JSON.stringify(r.body.text))}`;
  const headers = Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${k.toLowerCase() === 'authorization' ? `${v.slice(0, 14)}…` : v}`)
    .join('; ');
  return `${r.method} ${excerpt(r.url, 400)}\n  headers: ${headers || '(none)'}\n  body: ${body}`;
}

export async function send(agent: () => supertest.Agent, r: FuzzRequest): Promise<FuzzAnswer> {
  const method = r.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';
  let req = agent()[method](r.url).timeout({ response: HANG_MS, deadline: HANG_MS });
  for (const [k, v] of Object.entries(r.headers)) req = req.set(k, v);
  // Read every answer as bytes → text ourselves (binary answers included), so nothing is parsed twice.
  req = req.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  if (r.body.kind === 'json') req = req.set('Content-Type', 'application/json').send(JSON.stringify(r.body.value) ?? 'null');
  else if (r.body.kind === 'raw') req = req.set('Content-Type', r.body.contentType).send(r.body.text);
  let res: supertest.Response;
  try {
    res = await req;
  } catch (err) {
    const e = err as { timeout?: number; code?: string; message?: string };
    if (e.timeout || e.code === 'ECONNABORTED') throw new Error(`HANG: no complete answer within ${HANG_MS} ms\n${describeRequest(r)}`);
    throw new Error(`the connection failed (${e.code ?? ''} ${e.message ?? String(err)})\n${describeRequest(r)}`);
  }
  const buf = Buffer.isBuffer(res.body) ? res.body : Buffer.alloc(0);
  const contentType = String(res.headers['content-type'] ?? '');
  const textual = /json|text|html|xml|javascript/.test(contentType) || !contentType;
  const text = textual ? buf.toString('utf8') : '';
  let json: unknown;
  if (/json/.test(contentType)) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, contentType, text, json };
}

/** What must never reach a client: stack frames, source/file-system paths, SQL and database-driver text. */
const LEAKS: Array<[string, RegExp]> = [
  ['stack frame', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+\)?/],
  ['stack frame', /\n\s+at \S+/],
  ['source path', /(?:^|[\s"'(/])(?:server\/src|node_modules|\/work\/|\/home\/|\/usr\/lib\/node)\b/],
  ['source file', /[\w-]+\.(?:ts|mjs|cjs|js):\d+/],
  ['error class', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|SqliteError|DatabaseError|ZodError|AssertionError):/],
  ['SQL', /\b(?:select\b[^\n]{0,120}?\bfrom|insert into|delete from|update)\s+[`"]\w+[`"]|\bvalues \(\?/i],
  ['database error', /\b(?:SQLITE_[A-Z]+|no such (?:table|column)|constraint failed|syntax error at or near|violates (?:foreign key|unique|not-null|check) constraint|relation "\w+"|duplicate key value|knex:|better-sqlite3|pg-protocol)\b/i],
  ['undefined leak', /\b(?:Cannot read propert(?:y|ies) of (?:undefined|null)|is not a function|is not iterable|Maximum call stack size exceeded)\b/],
];

/** Every string of the request (path, query and body), so an echo of the caller's own input is not taken for a leak. */
function echoes(r: FuzzRequest): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    if (s.length >= 4) out.push(s);
  };
  const walk = (v: unknown, depth: number) => {
    if (depth > 50) return;
    if (typeof v === 'string') add(v);
    else if (Array.isArray(v)) v.slice(0, 200).forEach((x) => walk(x, depth + 1));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v).slice(0, 200)) {
        add(k);
        walk(x, depth + 1);
      }
    }
  };
  try {
    const u = new URL(r.url, 'http://x');
    for (const seg of u.pathname.split('/')) {
      add(seg);
      try {
        add(decodeURIComponent(seg));
      } catch {
        /* not decodable */
      }
    }
    for (const [k, v] of u.searchParams) {
      add(k);
      add(v);
    }
  } catch {
    /* not a URL */
  }
  if (r.body.kind === 'json') walk(r.body.value, 0);
  else if (r.body.kind === 'raw') add(r.body.text);
  return out.sort((a, b) => b.length - a.length);
}

/** Throws naming the request when the answer breaks a rule. */
export function check(r: FuzzRequest, a: FuzzAnswer, secrets: string[] = []): void {
  const fail = (what: string) => {
    throw new Error(`${what}\n${describeRequest(r)}\n  answer: ${a.status} ${a.contentType} ${excerpt(a.text, 600)}`);
  };
  if (a.status >= 500) fail(`5xx answer (${a.status})`);
  let scrubbed = a.text;
  for (const e of echoes(r)) {
    for (const form of [e, JSON.stringify(e).slice(1, -1)]) if (form.length >= 4) scrubbed = scrubbed.split(form).join('«echo»');
  }
  for (const [name, re] of LEAKS) {
    const m = re.exec(scrubbed);
    if (m) fail(`the answer leaks a ${name}: ${JSON.stringify(m[0])}`);
  }
  for (const s of secrets) if (s && a.text.includes(s)) fail(`the answer holds a server-side path or secret (${s})`);
  if (a.status >= 400) {
    if (!/application\/json/.test(a.contentType)) fail(`an error answer that is not JSON (${a.contentType || 'no content type'})`);
    const env = a.json as { success?: unknown; error?: unknown } | undefined;
    if (!env || env.success !== false || typeof env.error !== 'string' || !env.error.trim()) fail('an error answer outside the envelope {success: false, error}');
  }
}
