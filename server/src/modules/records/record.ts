// The spec's generic record, and the row shape every table presenting records answers
// (general_data itself, and the order tables through their record-type adapter).
import { fromJson } from '../../db';
import type { DataRecord } from '../../../../common/api/records';

/** The spec's generic data record: the shape the admin reads too (common/api). */
export type { DataRecord } from '../../../../common/api/records';

/** A record as a row. `extra`: the order tables' own JSON, laid over data (with status) as the API shows it. */
export interface RecordRow {
  id: number;
  type: string;
  field1: string | null;
  field2: string | null;
  name: string | null;
  status: string | null;
  search_text?: string | null;
  data: unknown;
  extra?: unknown;
  site_id: number;
  user_id: number | null;
  perm_create: boolean | number;
  perm_read: boolean | number;
  perm_update: boolean | number;
  perm_delete: boolean | number;
  created_at: string;
  updated_at: string;
}

export const recordFromRow = (r: RecordRow): DataRecord => ({
  id: Number(r.id),
  type: r.type,
  field1: r.field1,
  field2: r.field2,
  name: r.name,
  status: r.status ?? null,
  data:
    r.extra === null || r.extra === undefined
      ? fromJson(r.data, {})
      : { ...fromJson<Record<string, unknown>>(r.data, {}), ...fromJson<Record<string, unknown>>(r.extra, {}), status: r.status ?? null },
  siteId: r.site_id,
  userId: r.user_id,
  publicPermission: { create: Boolean(r.perm_create), read: Boolean(r.perm_read), update: Boolean(r.perm_update), delete: Boolean(r.perm_delete) },
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
