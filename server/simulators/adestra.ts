// A loopback Adestra for the demo and the tests, faithful to docs/connect-raisers-edge-adestra.md (Adestra): REST
// under /api/rest/1 with `Authorization: TOKEN …` (401, or {"error":"ip"} for a refused address),
// a core table of contacts upserted with dedupe on email (400 for a rejected address), lists with
// add/remove, search (answered as {contacts}, a bare array or {data}: readers differ), an unsubscribe list, and the saved exports 80 and 92 whose CSV files — and
// the unsubscribe files — it writes into a drop folder, on a schedule or on demand. Faults: the
// next calls answer a status, or drop the connection.
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';

export interface AdestraSimOptions {
  token: string;
  tableId?: number;
  optInListId?: number;
  /** More lists of the account (e.g. the shop's buyers), beside the opt-in and unsubscribe lists. */
  lists?: Array<{ id: number; name: string }>;
  unsubListId?: number;
  /** Where export and unsubscribe files are written. */
  dropDir?: string;
  /**
   * Called with the names of the files just written (the demo hands them on to a bucket, as the
   * job that fetches a real platform's exports would).
   */
  onWritten?: (dir: string, names: string[]) => void;
  now?: () => Date;
  /** Addresses the exports draw their rows from (the demo passes the CRM's supporters). */
  people?: () => Array<{ email: string; first_name?: string; last_name?: string }>;
  /** Remote addresses refused with 401 {"error":"ip"} (tests). */
  refusedIps?: string[];
  /** How a contact search answers: `{contacts:[…]}` (default, as the clients seen read it), a bare array, or `{data:[…]}`. */
  searchShape?: 'contacts' | 'array' | 'data';
}

interface Contact {
  id: number;
  email: string;
  [field: string]: unknown;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One CSV field: quoted when it holds the delimiter, a quote or a line break. */
function field(v: unknown, delimiter: string): string {
  const s = v === undefined || v === null ? '' : String(v);
  return s.includes(delimiter) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(columns: string[], rows: Array<Record<string, unknown>>, delimiter = ','): string {
  return [columns.join(delimiter), ...rows.map((r) => columns.map((c) => field(r[c], delimiter)).join(delimiter))].join('\r\n') + '\r\n';
}

/** Deterministic pick from a string (same day + kind → same rows). */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

export const EXPORT_COLUMNS = ['email', 'first_name', 'last_name', 'event', 'event_date', 'list_id'];
export const UNSUBSCRIBE_COLUMNS = ['email', 'unsubscribed_at', 'list_id'];

export function createAdestraSimulator(opts: AdestraSimOptions) {
  const now = opts.now ?? (() => new Date());
  const tableId = opts.tableId ?? 1;
  const optInListId = opts.optInListId ?? 1;
  const unsubListId = opts.unsubListId ?? 2;
  const state = {
    contacts: new Map<number, Contact>(),
    lists: new Map<number, { id: number; name: string; members: Set<number> }>([
      [optInListId, { id: optInListId, name: 'Newsletter opt-in', members: new Set() }],
      [unsubListId, { id: unsubListId, name: 'Unsubscribed', members: new Set() }],
      ...(opts.lists ?? []).map((l) => [l.id, { ...l, members: new Set<number>() }] as const),
    ]),
    unsubscribes: [] as Array<{ email: string; unsubscribed_at: string; list_id: number }>,
    calls: [] as Array<{ method: string; path: string; status: number }>,
    searchShape: opts.searchShape ?? 'contacts',
  };
  let seq = 0;
  const faults: Array<{ status?: number; drop?: boolean }> = [];

  const byEmail = (email: string) => [...state.contacts.values()].find((c) => c.email === email.toLowerCase());

  const app = express();
  app.disable('x-powered-by');
  const api = express.Router();
  api.use((req, res, next) => {
    res.on('finish', () => state.calls.push({ method: req.method, path: req.path, status: res.statusCode }));
    const f = faults.shift();
    if (f?.drop) return void req.socket.destroy();
    if (f) return void res.status(f.status ?? 500).json({ error: 'Simulated failure' });
    if (opts.refusedIps?.includes(req.socket.remoteAddress ?? '')) return void res.status(401).json({ error: 'ip' });
    if (req.get('authorization') !== `TOKEN ${opts.token}`) return void res.status(401).json({ error: 'Invalid or missing API token' });
    next();
  });
  api.use(express.json());

  const contactOr404 = (id: string, res: express.Response) => {
    const c = state.contacts.get(Number(id));
    if (!c) res.status(404).json({ error: 'Contact not found' });
    return c;
  };

  api.post('/contacts', (req, res) => {
    const b = req.body ?? {};
    if (Number(b.table_id) !== tableId) return void res.status(400).json({ error: `table_id ${b.table_id} does not exist` });
    const data = (b.contact_data ?? {}) as Record<string, unknown>;
    const email = String(data.email ?? '').trim().toLowerCase();
    if (!EMAIL.test(email)) return void res.status(400).json({ error: 'The email address was rejected', field: 'email' });
    const dedupe = b.dedupe_field ?? 'email';
    const existing = dedupe === 'email' ? byEmail(email) : undefined;
    const contact: Contact = existing ?? { id: ++seq, email };
    Object.assign(contact, data, { email });
    state.contacts.set(contact.id, contact);
    const listId = Number(b.options?.list_id);
    if (listId) {
      const list = state.lists.get(listId);
      if (!list) return void res.status(404).json({ error: 'List not found' });
      list.members.add(contact.id);
    }
    res.status(201).json(contact);
  });

  api.get('/contacts/:id', (req, res) => {
    const c = contactOr404(String(req.params.id), res);
    if (c) res.json({ ...c, lists: [...state.lists.values()].filter((l) => l.members.has(c.id)).map((l) => l.id) });
  });

  api.post('/contacts/:id/lists/:list', (req, res) => {
    const c = contactOr404(String(req.params.id), res);
    if (!c) return;
    const list = state.lists.get(Number(req.params.list));
    if (!list) return void res.status(404).json({ error: 'List not found' });
    list.members.add(c.id);
    res.status(201).json({ contact_id: c.id, list_id: list.id });
  });

  api.delete('/contacts/:id/lists/:list', (req, res) => {
    const c = contactOr404(String(req.params.id), res);
    if (!c) return;
    const list = state.lists.get(Number(req.params.list));
    if (!list) return void res.status(404).json({ error: 'List not found' });
    list.members.delete(c.id);
    res.status(204).end();
  });

  api.get('/core_tables/:id/contacts', (req, res) => {
    if (Number(req.params.id) !== tableId) return void res.status(404).json({ error: 'Core table not found' });
    let search: Record<string, unknown> = {};
    try {
      search = req.query.search ? JSON.parse(String(req.query.search)) : {};
    } catch {
      return void res.status(400).json({ error: 'search must be JSON' });
    }
    const matches = [...state.contacts.values()].filter((c) => Object.entries(search).every(([k, v]) => String(c[k] ?? '').toLowerCase() === String(v).toLowerCase()));
    const shape = state.searchShape;
    res.json(shape === 'array' ? matches : shape === 'data' ? { data: matches } : { contacts: matches });
  });

  api.get('/core_tables/:id', (req, res) => {
    if (Number(req.params.id) !== tableId) return void res.status(404).json({ error: 'Core table not found' });
    res.json({ id: tableId, name: 'Supporters', contact_count: state.contacts.size });
  });

  api.get('/lists/:id', (req, res) => {
    const list = state.lists.get(Number(req.params.id));
    if (!list) return void res.status(404).json({ error: 'List not found' });
    res.json({ id: list.id, name: list.name, table_id: tableId, contact_count: list.members.size });
  });

  // The "external export view" the sync screen links to.
  api.get('/exports/:n', (req, res) => {
    const n = Number(req.params.n);
    if (n !== 80 && n !== 92) return void res.status(404).json({ error: 'Export not found' });
    const files = opts.dropDir && fs.existsSync(opts.dropDir) ? fs.readdirSync(opts.dropDir).filter((f) => f.startsWith(`export_${n}_`)) : [];
    res.json({ id: n, name: `Saved export ${n}`, columns: EXPORT_COLUMNS, schedule: 'daily', files });
  });

  app.use('/api/rest/1', api);

  /** A supporter unsubscribes in the platform: on the unsubscribe list, off the opt-in list. */
  function unsubscribe(email: string, at: Date = now()) {
    const e = email.toLowerCase();
    state.unsubscribes.push({ email: e, unsubscribed_at: at.toISOString(), list_id: optInListId });
    const c = byEmail(e);
    if (c) {
      state.lists.get(optInListId)?.members.delete(c.id);
      state.lists.get(unsubListId)?.members.add(c.id);
    }
  }

  /**
   * Write the day's files (YYYY-MM-DD) into the drop folder: unsubscribe_<d>.csv (that day's
   * unsubscribes), export_80_<d>.csv and export_92_<d>.csv (rows drawn from `people`). An
   * existing file is kept. Delimiters differ on purpose: comma, semicolon, pipe.
   */
  function writeFiles(day: string, dir = opts.dropDir): string[] {
    if (!dir) return [];
    fs.mkdirSync(dir, { recursive: true });
    const d = day.replace(/-/g, '');
    const written: string[] = [];
    const put = (name: string, content: string) => {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) return;
      fs.writeFileSync(`${file}.part`, content);
      fs.renameSync(`${file}.part`, file);
      written.push(name);
    };
    const unsubs = state.unsubscribes.filter((u) => u.unsubscribed_at.slice(0, 10) === day);
    put(`unsubscribe_${d}.csv`, toCsv(UNSUBSCRIBE_COLUMNS, unsubs, ','));
    const people = opts.people?.() ?? [...state.contacts.values()].map((c) => ({ email: c.email, first_name: String(c.first_name ?? ''), last_name: String(c.last_name ?? '') }));
    for (const [n, delimiter] of [
      [80, ';'],
      [92, '|'],
    ] as const) {
      const rows: Array<Record<string, unknown>> = [];
      if (people.length) {
        const start = hash(`${day}:${n}`) % people.length;
        const count = Math.min(people.length, 12 + (hash(`${n}:${day}`) % 10));
        for (let i = 0; i < count; i++) {
          const p = people[(start + i * 7) % people.length];
          const pick = hash(`${p.email}:${day}:${n}`) % 10;
          const event = pick < 5 ? 'subscribe' : pick < 8 ? 'unsubscribe' : 'click';
          rows.push({ ...p, event, event_date: `${day}T${String(8 + (i % 10)).padStart(2, '0')}:00:00Z`, list_id: optInListId });
        }
      }
      put(`export_${n}_${d}.csv`, toCsv(EXPORT_COLUMNS, rows, delimiter));
    }
    if (written.length) opts.onWritten?.(dir, written);
    return written;
  }

  let timer: NodeJS.Timeout | undefined;
  return {
    app,
    state,
    unsubscribe,
    writeFiles,
    /** Write today's files every `everyMs` (an existing file is kept). */
    startSchedule(everyMs: number) {
      if (!everyMs) return;
      timer = setInterval(() => {
        try {
          writeFiles(now().toISOString().slice(0, 10));
        } catch {
          // a full disk or a removed folder: the next tick tries again
        }
      }, everyMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
    failNext(n: number, status: number) {
      for (let i = 0; i < n; i++) faults.push({ status });
    },
    dropNext(n: number) {
      for (let i = 0; i < n; i++) faults.push({ drop: true });
    },
    isOnList: (email: string, listId = optInListId) => {
      const c = byEmail(email);
      return Boolean(c && state.lists.get(listId)?.members.has(c.id));
    },
    contactByEmail: byEmail,
  };
}

export type AdestraSimulator = ReturnType<typeof createAdestraSimulator>;
