// What other modules may read or write of general-data records, by name; the repo stays inside.
import { generalDataRepo } from './repo';

type Repo = ReturnType<typeof generalDataRepo>;
type Conn = Parameters<typeof generalDataRepo>[0];

export const listRecords = (db: Conn, ...args: Parameters<Repo['list']>): ReturnType<Repo['list']> => generalDataRepo(db).list(...args);
export const findRecord = (db: Conn, ...args: Parameters<Repo['byId']>): ReturnType<Repo['byId']> => generalDataRepo(db).byId(...args);
export const insertRecord = (db: Conn, ...args: Parameters<Repo['insert']>): ReturnType<Repo['insert']> => generalDataRepo(db).insert(...args);
export const updateRecord = (db: Conn, ...args: Parameters<Repo['update']>): ReturnType<Repo['update']> => generalDataRepo(db).update(...args);
export const newestRecordsByField1 = (db: Conn, ...args: Parameters<Repo['newestByField1']>): ReturnType<Repo['newestByField1']> => generalDataRepo(db).newestByField1(...args);
