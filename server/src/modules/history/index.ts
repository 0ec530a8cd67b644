// The history (audit trail): what the module offers to the others.
export { AUTOMATIC, byUser, byUserId, recordChange, type ChangeEntry, type HistoryBy } from './record';
export { historyService, type HistoryPorts, type HistoryService } from './service';
export { historyRoutes, orderHistoryRoutes, jobHistoryRoutes } from './routes';
