// Owns the spec's generic records API: general_data rows, and the order tables' records through it.
export { type DataRecord, recordFromRow, type RecordRow } from '../records';
export { type RecordFilter, type RecordSortField } from './repo';
export { generalDataRoutes } from './routes';
export { recordType, upsertBody } from './schema';
export { generalDataService, type GeneralDataService } from './service';
export { listRecords, findRecord, insertRecord, newestRecordsByField1, updateRecord } from './queries';
