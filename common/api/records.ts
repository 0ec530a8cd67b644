// The spec's generic data record (general data, keyed by type and id).
import type { RecordId } from './envelope';

export interface Permission {
  create: boolean;
  read: boolean;
  update: boolean;
  delete: boolean;
}

/** A general-data record; `D` is the data of its type (order log entry, provider event, sync run…). */
export interface DataRecord<D = Record<string, unknown>> {
  id: RecordId;
  type: string;
  field1: string | null;
  field2: string | null;
  name: string | null;
  /** Lifecycle status where the type has one (orders, provider events). */
  status: string | null;
  data: D;
  siteId: RecordId;
  userId: RecordId | null;
  publicPermission: Permission;
  createdAt: string;
  updatedAt: string;
}
