// Owns the spec's generic records API (general_data) and the record type names.
// Leaf files first: modules in the orders cycle read RECORD_TYPES while this face is still loading.
export { ORDER_RECORD_NAME, RECORD_TYPES } from './types';
export { type DataRecord, recordFromRow, type RecordRow } from './record';
export { type RecordFilter, type RecordSortField } from './repo';
export { generalDataRoutes } from './routes';
export { recordType, upsertBody } from './schema';
export { generalDataService, type GeneralDataService } from './service';
export { listRecords, findRecord, insertRecord, updateRecord } from './queries';
