// The one permission rule of the admin UI (spec §6). The server enforces the same rules.
import type { Role } from './session';

export interface AccessRequest {
  resource: string;
  action: string;
}

/** Screens/resources only an admin may see or change: tenants, their users, cross-client views. */
export const ADMIN_ONLY_RESOURCES: ReadonlySet<string> = new Set([
  'sites',
  'users',
  'all-orders',
  'hp-data',
  're-n-adestra-sync',
  'send-hp-manually',
]);

export function canAccess(role: Role | null | undefined, { resource }: AccessRequest): boolean {
  if (role === 'admin') return true;
  if (!role) return false;
  return !ADMIN_ONLY_RESOURCES.has(resource);
}
