// What other modules may read through the search index, by name; the repo stays inside.
import { searchRepo } from './repo';

type Repo = ReturnType<typeof searchRepo>;
type Conn = Parameters<typeof searchRepo>[0];

export const siteNames = (db: Conn, ...args: Parameters<Repo['siteNames']>): ReturnType<Repo['siteNames']> => searchRepo(db).siteNames(...args);
