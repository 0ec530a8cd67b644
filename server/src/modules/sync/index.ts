// What the sync module offers to the rest of the server: the assembled service (routes, scheduler,
// main), its HTTP routes, and the job names and run types the scheduler plans with.
export { syncService, CLOUD_EVENT_TYPE, RE_SOURCE, type SyncService, type SyncServiceOptions } from './service';
export { syncRoutes } from './routes';
export { syncTestRoutes } from './testRoutes';
export { JOB_NAMES, type JobName, type RunTrigger } from './records';
export { type Check } from './connectivity';
export { RE_ID_FIELD, type SyncResult } from './constituent';
export { type JobConfig } from './records';
export { syncSettingsOf } from './siteSettings';
