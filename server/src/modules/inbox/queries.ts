// What other modules may read or change of the inbox's deliveries, by name; the repo stays inside.
import { inboxRepo } from './repo';

type Repo = ReturnType<typeof inboxRepo>;
type Conn = Parameters<typeof inboxRepo>[0];

export const failingDeliveriesBySource = (db: Conn, ...args: Parameters<Repo['failingBySource']>): ReturnType<Repo['failingBySource']> => inboxRepo(db).failingBySource(...args);
export const rewriteDeliveryPayloads = (db: Conn, ...args: Parameters<Repo['rewritePayloads']>): ReturnType<Repo['rewritePayloads']> => inboxRepo(db).rewritePayloads(...args);
export const anyDeliveryOf = (db: Conn, ...args: Parameters<Repo['anyOf']>): ReturnType<Repo['anyOf']> => inboxRepo(db).anyOf(...args);
export const deliveriesReceivedBetween = (db: Conn, ...args: Parameters<Repo['receivedBetween']>): ReturnType<Repo['receivedBetween']> => inboxRepo(db).receivedBetween(...args);
