// Owns the record type names of the spec's generic API: which types exist, which live in the order tables, which only Presswork writes.
export { isOrderTableType, ORDER_RECORD_NAME, ORDER_TABLE_TYPES, RECORD_TYPES, SYSTEM_TYPES } from './types';
