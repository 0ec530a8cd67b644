import type { Db } from '../../db';
import { countOf } from '../../db';
import type { Role } from '../../http/types';

export interface UserRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  role: Role;
  site_id: number;
  created_at: string;
  updated_at: string;
}

export interface UserFilter {
  siteId?: number;
  ids?: number[];
  q?: string;
  role?: Role;
}

export type SortField = 'id' | 'firstName' | 'lastName' | 'email' | 'role' | 'siteId' | 'createdAt';
const COLUMN: Record<SortField, string> = {
  id: 'id',
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  role: 'role',
  siteId: 'site_id',
  createdAt: 'created_at',
};

export function usersRepo(db: Db) {
  const filtered = (f: UserFilter) => {
    const q = db<UserRow>('users');
    if (f.siteId !== undefined) q.where('site_id', f.siteId);
    if (f.ids) q.whereIn('id', f.ids);
    if (f.role) q.where('role', f.role);
    if (f.q) {
      const like = `%${f.q.toLowerCase()}%`;
      q.where((w) => w.whereRaw('lower(first_name) like ?', [like]).orWhereRaw('lower(last_name) like ?', [like]).orWhereRaw('lower(email) like ?', [like]));
    }
    return q;
  };
  return {
    byId: (id: number) => db<UserRow>('users').where({ id }).first(),
    byEmail: (email: string) => db<UserRow>('users').where({ email: email.toLowerCase() }).first(),
    async list(f: UserFilter, sort: { field: SortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
      const q = filtered(f);
      const [rows, total] = await Promise.all([
        q.clone().select('*').orderBy(COLUMN[sort.field], sort.order).orderBy('id', 'asc').limit(limit).offset(offset),
        countOf(q),
      ]);
      return { rows: rows as UserRow[], total };
    },
    async insert(row: Omit<UserRow, 'id'>): Promise<number> {
      const [r] = await db('users').insert(row).returning('id');
      return typeof r === 'object' ? r.id : r;
    },
    update: (id: number, changes: Partial<Omit<UserRow, 'id'>>) => db('users').where({ id }).update(changes),
    delete: (id: number) => db('users').where({ id }).delete(),
    countAdmins: () => countOf(db('users').where({ role: 'admin' })),
    revokeToken: (jti: string, expiresAt: string) => db('revoked_tokens').insert({ jti, expires_at: expiresAt }).onConflict('jti').ignore(),
    isRevoked: async (jti: string) => Boolean(await db('revoked_tokens').where({ jti }).first('jti')),
    /** The token check in one statement: the user, unless the token (jti) was revoked or the user is gone. */
    activeUser: (id: number, jti: string) =>
      db<UserRow>('users')
        .where({ id })
        .whereNotExists((q) => q.select(db.raw('1')).from('revoked_tokens').where({ jti }))
        .first(),
    purgeRevoked: (before: string) => db('revoked_tokens').where('expires_at', '<', before).delete(),
  };
}

export type UsersRepo = ReturnType<typeof usersRepo>;
