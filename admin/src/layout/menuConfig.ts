import type { ComponentType } from 'react';
import BrushIcon from '@mui/icons-material/Brush';
import DnsIcon from '@mui/icons-material/Dns';
import ListAltIcon from '@mui/icons-material/ListAlt';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SendIcon from '@mui/icons-material/Send';
import StorefrontIcon from '@mui/icons-material/Storefront';
import SyncIcon from '@mui/icons-material/Sync';
import type { Role } from '../providers/session';

export interface MenuEntry {
  label: string;
  to: string;
  /** Resource checked with canAccess(role, {resource, action: 'list'}). */
  resource: string;
  /** Which menu lists the entry (spec §2 gives an admin menu and a non-admin menu). */
  menus: readonly Role[];
  icon: ComponentType;
  /** Set to true once the screen exists; unready entries are never shown. */
  ready: boolean;
  /** Client-specific entries: shown only to users of the site with this slug. */
  siteSlug?: string;
}

/** One list, in the admin menu's order; the non-admin menu keeps the same relative order. */
export const MENU: readonly MenuEntry[] = [
  { label: 'List Sites', to: '/sites', resource: 'sites', menus: ['admin'], icon: StorefrontIcon, ready: true },
  { label: 'All list Orders', to: '/all-orders', resource: 'all-orders', menus: ['admin'], icon: ReceiptLongIcon, ready: false },
  { label: 'List Orders', to: '/orders', resource: 'orders', menus: ['user'], icon: ListAltIcon, ready: false },
  { label: 'Data from HP', to: '/hp-data', resource: 'hp-data', menus: ['admin'], icon: DnsIcon, ready: false },
  { label: 'Product Designs', to: '/designs', resource: 'designs', menus: ['admin', 'user'], icon: BrushIcon, ready: false },
  { label: 'RE & Adestra Sync', to: '/re-n-adestra-sync', resource: 're-n-adestra-sync', menus: ['admin'], icon: SyncIcon, ready: false },
  { label: 'Hood Send HP Manually', to: '/send-hp-manually', resource: 'send-hp-manually', menus: ['admin'], icon: SendIcon, ready: false },
];

/** The entries of one role's menu, in order; `siteSlug` is the signed-in user's site. */
export function menuEntriesFor(
  role: Role | null | undefined,
  options: { siteSlug?: string | null; entries?: readonly MenuEntry[] } = {},
): MenuEntry[] {
  const { siteSlug, entries = MENU } = options;
  if (!role) return [];
  return entries.filter(
    (entry) => entry.ready && entry.menus.includes(role) && (!entry.siteSlug || entry.siteSlug === siteSlug),
  );
}
