// What other modules may read of users, by name; the repo stays inside.
import { usersRepo } from './repo';

type Repo = ReturnType<typeof usersRepo>;
type Conn = Parameters<typeof usersRepo>[0];

export const findUser = (db: Conn, ...args: Parameters<Repo['byId']>): ReturnType<Repo['byId']> => usersRepo(db).byId(...args);
