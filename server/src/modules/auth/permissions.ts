// Who may do what: small pure rules, used by every service (and tested without HTTP).
import type { Actor } from '../../http/types';
import { forbidden } from '../../http/errors';
import type { Permission } from '../../../../common/api/records';

export const isAdmin = (actor: Actor) => actor.role === 'admin';

/** Admin-only areas: sites and users administration, all-clients views. */
export function assertAdmin(actor: Actor, what = 'Only an admin can do this'): void {
  if (!isAdmin(actor)) throw forbidden(what);
}

export type { Permission };
export const DEFAULT_PERMISSION: Permission = { create: true, read: true, update: true, delete: false };

/**
 * A general-data record: admins may do anything; its creator may read, update and delete it;
 * other users of the same site get what the record's publicPermission grants; other sites nothing.
 */
export function canOnRecord(
  actor: Actor,
  record: { siteId: number; userId: number | null; publicPermission: Permission },
  action: 'read' | 'update' | 'delete',
): 'yes' | 'forbidden' | 'not-found' {
  if (isAdmin(actor)) return 'yes';
  if (record.siteId !== actor.siteId) return 'not-found';
  if (record.userId === actor.id) return 'yes';
  if (record.publicPermission[action]) return 'yes';
  return action === 'read' ? 'not-found' : 'forbidden';
}
