// Owns the CRM sync (Raiser's Edge): scheduled and webhook runs, their files and the service that runs them.
export { syncService, CLOUD_EVENT_TYPE, RE_SOURCE, type SyncService, type SyncServiceOptions } from './service';
export { syncRoutes } from './routes';
export { syncTestRoutes } from './testRoutes';
export { JOB_NAMES, type JobName, type RunTrigger } from './records';
export { type Check } from './connectivity';
export { RE_ID_FIELD, type SyncResult } from './constituent';
export { type JobConfig } from './records';
export { syncSettingsOf, dropDirOf } from './siteSettings';
export { storeDropFiles, type DropFiles } from './dropFiles';
export { kindOfName as dropFileKindOf } from './files';
