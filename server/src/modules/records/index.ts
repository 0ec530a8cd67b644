// Owns the spec's generic record: its type names (which exist, which live in the order tables, which only Presswork writes) and the row shape every record table answers.
export { type DataRecord, recordFromRow, type RecordRow } from './record';
export { isOrderTableType, ORDER_RECORD_NAME, ORDER_TABLE_TYPES, RECORD_TYPES, SYSTEM_TYPES } from './types';
