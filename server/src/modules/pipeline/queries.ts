// What other modules may read of the order pipeline's runs, by name; the repo stays inside.
import { pipelineRepo } from './repo';

type Repo = ReturnType<typeof pipelineRepo>;
type Conn = Parameters<typeof pipelineRepo>[0];

export const pipelineRunsOfOrder = (db: Conn, ...args: Parameters<Repo['ofOrder']>): ReturnType<Repo['ofOrder']> => pipelineRepo(db).ofOrder(...args);
