// What other modules may read or change through this module's repos, by name; the repos stay inside.
import { orderTablesRepo } from './tablesRepo';

type OrderTablesRepo = ReturnType<typeof orderTablesRepo>;
export const ordersPlacedSince = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['placedSince']>): ReturnType<OrderTablesRepo['placedSince']> => orderTablesRepo(db).placedSince(...args);
export const orderNames = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['orderNames']>): ReturnType<OrderTablesRepo['orderNames']> => orderTablesRepo(db).orderNames(...args);
export const orderRecordOf = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['orderOf']>): ReturnType<OrderTablesRepo['orderOf']> => orderTablesRepo(db).orderOf(...args);
export const newestOrder = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['newestOrder']>): ReturnType<OrderTablesRepo['newestOrder']> => orderTablesRepo(db).newestOrder(...args);
export const orderById = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['orderById']>): ReturnType<OrderTablesRepo['orderById']> => orderTablesRepo(db).orderById(...args);
export const insertProviderEvent = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['insertProviderEvent']>): ReturnType<OrderTablesRepo['insertProviderEvent']> => orderTablesRepo(db).insertProviderEvent(...args);
export const insertProviderSend = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['insertProviderSend']>): ReturnType<OrderTablesRepo['insertProviderSend']> => orderTablesRepo(db).insertProviderSend(...args);
export const orderStates = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['orderStates']>): ReturnType<OrderTablesRepo['orderStates']> => orderTablesRepo(db).orderStates(...args);
export const deleteOrderTableRecord = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['deleteRecord']>): ReturnType<OrderTablesRepo['deleteRecord']> => orderTablesRepo(db).deleteRecord(...args);
export const insertOrderTableRecord = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['insertRecord']>): ReturnType<OrderTablesRepo['insertRecord']> => orderTablesRepo(db).insertRecord(...args);
export const orderTableRecordById = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['recordById']>): ReturnType<OrderTablesRepo['recordById']> => orderTablesRepo(db).recordById(...args);
export const orderTableRecordSource = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['recordSource']>): ReturnType<OrderTablesRepo['recordSource']> => orderTablesRepo(db).recordSource(...args);
export const updateOrderTableRecord = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['updateRecord']>): ReturnType<OrderTablesRepo['updateRecord']> => orderTablesRepo(db).updateRecord(...args);
export const latestOrdersOfSite = (db: Parameters<typeof orderTablesRepo>[0], ...args: Parameters<OrderTablesRepo['latestOfSite']>): ReturnType<OrderTablesRepo['latestOfSite']> => orderTablesRepo(db).latestOfSite(...args);
