import type { Db } from '../../db';
import { countOf, fromJson, toJson } from '../../db';
import type { EnvVar } from '../../lib/secrets';

export interface Site {
  id: number;
  name: string;
  slug: string;
  logo: string | null;
  theme: { mainColor: string; [k: string]: unknown };
  settings: { env: EnvVar[]; [k: string]: unknown };
  createdAt: string;
  updatedAt: string;
}

interface SiteRow {
  id: number;
  name: string;
  slug: string;
  logo: string | null;
  theme: unknown;
  settings: unknown;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: SiteRow): Site => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  logo: r.logo,
  theme: fromJson(r.theme, { mainColor: '#000000' }),
  settings: { env: [], ...fromJson<Partial<Site['settings']>>(r.settings, {}) } as Site['settings'],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export type SiteSortField = 'id' | 'name' | 'slug' | 'createdAt';
const COLUMN: Record<SiteSortField, string> = { id: 'id', name: 'name', slug: 'slug', createdAt: 'created_at' };

export function sitesRepo(db: Db) {
  return {
    exists: async (id: number) => Boolean(await db('sites').where({ id }).first('id')),
    async byId(id: number) {
      const r = await db<SiteRow>('sites').where({ id }).first();
      return r ? fromRow(r) : undefined;
    },
    async bySlug(slug: string) {
      const r = await db<SiteRow>('sites').where({ slug }).first();
      return r ? fromRow(r) : undefined;
    },
    async first() {
      const r = await db<SiteRow>('sites').orderBy('id').first();
      return r ? fromRow(r) : undefined;
    },
    async list(f: { ids?: number[]; q?: string }, sort: { field: SiteSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
      const q = db<SiteRow>('sites');
      if (f.ids) q.whereIn('id', f.ids);
      if (f.q) {
        const like = `%${f.q.toLowerCase()}%`;
        q.where((w) => w.whereRaw('lower(name) like ?', [like]).orWhereRaw('lower(slug) like ?', [like]));
      }
      const [rows, total] = await Promise.all([
        q.clone().select('*').orderBy(COLUMN[sort.field], sort.order).orderBy('id').limit(limit).offset(offset),
        countOf(q),
      ]);
      return { rows: (rows as SiteRow[]).map(fromRow), total };
    },
    async insert(s: Omit<Site, 'id'>): Promise<number> {
      const [r] = await db('sites')
        .insert({ name: s.name, slug: s.slug, logo: s.logo, theme: toJson(s.theme), settings: toJson(s.settings), created_at: s.createdAt, updated_at: s.updatedAt })
        .returning('id');
      return typeof r === 'object' ? r.id : r;
    },
    update: (id: number, s: Omit<Site, 'id' | 'createdAt'>) =>
      db('sites')
        .where({ id })
        .update({ name: s.name, slug: s.slug, logo: s.logo, theme: toJson(s.theme), settings: toJson(s.settings), updated_at: s.updatedAt }),
    delete: (id: number) => db('sites').where({ id }).delete(),
    async dependents(id: number) {
      const [users, records, orders, events, sends, designs, printJobs] = await Promise.all([
        countOf(db('users').where({ site_id: id })),
        countOf(db('general_data').where({ site_id: id })),
        countOf(db('store_orders').where({ site_id: id })),
        countOf(db('provider_events').where({ site_id: id })),
        countOf(db('provider_sends').where({ site_id: id })),
        countOf(db('designs').where({ site_id: id })),
        countOf(db('print_jobs').where({ client_id: id })),
      ]);
      return { users, records: records + orders + events + sends + designs + printJobs };
    },
  };
}

export type SitesRepo = ReturnType<typeof sitesRepo>;
