// What other modules may read or change of uploaded files' records, by name; the repo stays inside.
import { uploadsRepo } from './repo';

type Repo = ReturnType<typeof uploadsRepo>;
type Conn = Parameters<typeof uploadsRepo>[0];

export const uploadExists = (db: Conn, ...args: Parameters<Repo['exists']>): ReturnType<Repo['exists']> => uploadsRepo(db).exists(...args);
export const registerUpload = (db: Conn, ...args: Parameters<Repo['register']>): ReturnType<Repo['register']> => uploadsRepo(db).register(...args);
export const insertUpload = (db: Conn, ...args: Parameters<Repo['insert']>): ReturnType<Repo['insert']> => uploadsRepo(db).insert(...args);
export const removeUpload = (db: Conn, ...args: Parameters<Repo['remove']>): ReturnType<Repo['remove']> => uploadsRepo(db).remove(...args);
export const uploadSiteOf = (db: Conn, ...args: Parameters<Repo['siteOf']>): ReturnType<Repo['siteOf']> => uploadsRepo(db).siteOf(...args);
