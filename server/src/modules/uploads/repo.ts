// SQL of stored files: one row a file under DATA_DIR/files (what /files/<key> serves).
import type { Knex } from 'knex';
import type { Db } from '../../db';

export interface FileRow {
  key: string;
  contentType: string;
  size: number;
  userId: number | null;
  siteId: number | null;
  createdAt: string;
}

export function uploadsRepo(db: Db | Knex.Transaction) {
  return {
    /** Records a file made by Presswork itself; a key already recorded is kept as it is. */
    async register(f: FileRow): Promise<void> {
      await db('uploads')
        .insert({ key: f.key, content_type: f.contentType, size: f.size, user_id: f.userId, site_id: f.siteId, created_at: f.createdAt })
        .onConflict('key')
        .ignore();
    },
    /** Claims a key for a file about to be written: false when the key is taken (of two uploads on one link, one wins). */
    async claim(f: FileRow): Promise<boolean> {
      const rows = await db('uploads')
        .insert({ key: f.key, content_type: f.contentType, size: f.size, user_id: f.userId, site_id: f.siteId, created_at: f.createdAt })
        .onConflict('key')
        .ignore()
        .returning('id');
      return rows.length > 0;
    },
    /** Records a new file (the key is fresh: a clash is an error). */
    insert: (f: FileRow) => db('uploads').insert({ key: f.key, content_type: f.contentType, size: f.size, user_id: f.userId, site_id: f.siteId, created_at: f.createdAt }),
    remove: (key: string) => db('uploads').where({ key }).delete(),
    async contentTypeOf(key: string): Promise<string | undefined> {
      const row = (await db('uploads').where({ key }).first('content_type')) as { content_type: string } | undefined;
      return row?.content_type;
    },
    /** The file's site: undefined when no row names the key, null when it has no site. */
    async siteOf(key: string): Promise<number | null | undefined> {
      const row = (await db('uploads').where({ key }).first('site_id')) as { site_id: number | null } | undefined;
      return row ? row.site_id : undefined;
    },
    exists: async (key: string) => Boolean(await db('uploads').where({ key }).first('id')),
  };
}
