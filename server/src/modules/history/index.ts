// Owns the history (audit trail): every change recorded, and the timelines of jobs and orders.
export { AUTOMATIC, byUser, byUserId, recordChange, recordChanges, type ChangeEntry, type HistoryBy } from './record';
export { historyService, type HistoryPorts, type HistoryService } from './service';
export { historyRoutes, orderHistoryRoutes, jobHistoryRoutes } from './routes';
