// What other modules may read of batches, by name; the repo stays inside.
import { batchesRepo } from './repo';

type Repo = ReturnType<typeof batchesRepo>;
type Conn = Parameters<typeof batchesRepo>[0];

export const newestBatchNumberOf = (db: Conn, ...args: Parameters<Repo['newestNumberOf']>): ReturnType<Repo['newestNumberOf']> => batchesRepo(db).newestNumberOf(...args);
export const batchItemNumbers = (db: Conn, ...args: Parameters<Repo['itemNumbers']>): ReturnType<Repo['itemNumbers']> => batchesRepo(db).itemNumbers(...args);
