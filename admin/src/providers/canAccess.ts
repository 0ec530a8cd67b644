import type { Role } from '../../../common/api/sites';
// The one permission rule of the admin UI (spec §6). The server enforces the same rules.

export interface AccessRequest {
  resource: string;
  action: string;
  /** The record acted on, when the rule depends on it (a design's creator). */
  record?: { createdByUserId?: number | string | null } | null;
}

/** Changes only an admin or the record's creator may make (spec §6: save or delete a design). */
const CREATOR_ONLY: Readonly<Record<string, ReadonlySet<string>>> = {
  designs: new Set(['edit', 'delete']),
};

/**
 * Screens/resources only an admin may see or change: tenants, their users, cross-client views, and
 * the stores (a store's secrets are site settings). The manual send is any signed-in user's (spec §6);
 * only the menu keeps it to admins (spec §2). The sync screen (re-n-adestra-sync) is also a user's when
 * their site has the sync (features.sync): the screen and the menu check that, the server enforces it.
 */
export const ADMIN_ONLY_RESOURCES: ReadonlySet<string> = new Set([
  'sites',
  'users',
  'all-orders',
  'hp-data',
  'stores',
  // The whole history (audit trail) of every site.
  'history',
  // Connecting a site's Raiser's Edge, its consent names and webhook subscriptions.
  'raisers-edge-connection',
  // The demo's caught e-mails (anyone's messages).
  'caught-emails',
  // The API reference (every route, the admin ones too).
  'api-reference',
  // Uploading the printers' colour profiles (the server allows only admins).
  'print-profiles',
]);

/** `userId` is the signed-in user's id, compared with the record's creator. */
export function canAccess(
  role: Role | null | undefined,
  { resource, action, record }: AccessRequest,
  userId?: number | string | null,
): boolean {
  if (role === 'admin') return true;
  if (!role) return false;
  if (ADMIN_ONLY_RESOURCES.has(resource)) return false;
  if (record && CREATOR_ONLY[resource]?.has(action)) {
    return userId !== null && userId !== undefined && String(record.createdByUserId ?? '') === String(userId);
  }
  return true;
}
