import type { ComponentType } from 'react';
import AltRouteIcon from '@mui/icons-material/AltRoute';
import AssessmentIcon from '@mui/icons-material/Assessment';
import BrushIcon from '@mui/icons-material/Brush';
import CategoryIcon from '@mui/icons-material/Category';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import DesignServicesIcon from '@mui/icons-material/DesignServices';
import DnsIcon from '@mui/icons-material/Dns';
import HandshakeIcon from '@mui/icons-material/Handshake';
import HistoryIcon from '@mui/icons-material/History';
import LanIcon from '@mui/icons-material/Lan';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import NotificationImportantIcon from '@mui/icons-material/NotificationImportant';
import ListAltIcon from '@mui/icons-material/ListAlt';
import ApiIcon from '@mui/icons-material/Api';
import PaletteIcon from '@mui/icons-material/Palette';
import PrintIcon from '@mui/icons-material/Print';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SendIcon from '@mui/icons-material/Send';
import StorefrontIcon from '@mui/icons-material/Storefront';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import SyncIcon from '@mui/icons-material/Sync';
import TimelineIcon from '@mui/icons-material/Timeline';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import type { Role } from '../../../common/api/sites';

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
  /** Set-up screens, listed apart below the everyday ones. */
  group?: 'setup';
  /**
   * Client-specific entries of a site feature: non-admins see them only when their site has it
   * (GET /api/sites/info → data.data.features); admins always do.
   */
  feature?: 'sync';
  /** Shown only when the server runs this (the demo's mail catcher runs outside production only). */
  needs?: 'mailCatcher';
  /** A count beside the entry, from the shared Needs attention poll: every problem, or the jobs held by preflight. */
  badge?: 'attention' | 'held';
}

/**
 * One list, in the admin menu's order; the non-admin menu keeps the same relative order.
 * The spec's items keep the spec's order; the print screens (our addition, what operators use
 * most) come right after List Sites, and the sample demo sits at the bottom.
 */
export const MENU: readonly MenuEntry[] = [
  // Problems first: what an operator fixes before anything else.
  { label: 'Needs attention', to: '/attention', resource: 'attention', menus: ['admin', 'user'], icon: NotificationImportantIcon, ready: true, badge: 'attention' },
  { label: 'List Sites', to: '/sites', resource: 'sites', menus: ['admin'], icon: StorefrontIcon, ready: true },
  { label: 'Jobs', to: '/print-jobs', resource: 'print-jobs', menus: ['admin', 'user'], icon: PrintIcon, ready: true, badge: 'held' },
  { label: 'Batches', to: '/batches', resource: 'batches', menus: ['admin', 'user'], icon: ViewModuleIcon, ready: true },
  { label: 'Print History', to: '/print-history', resource: 'print-history', menus: ['admin', 'user'], icon: HistoryIcon, ready: true },
  { label: 'Scan station', to: '/scan', resource: 'scan', menus: ['admin', 'user'], icon: QrCodeScannerIcon, ready: true },
  // Staff's Stock: receiving a delivery and counting the shelf are floor tasks, so it sits with the
  // floor's screens (admins have it under Setup). The server lets staff change their site's items.
  { label: 'Stock', to: '/stock-items', resource: 'stock-items', menus: ['user'], icon: Inventory2OutlinedIcon, ready: true },
  { label: 'Print Reports', to: '/reports', resource: 'reports', menus: ['admin', 'user'], icon: AssessmentIcon, ready: true },
  { label: 'All list Orders', to: '/all-orders', resource: 'all-orders', menus: ['admin'], icon: ReceiptLongIcon, ready: true },
  { label: 'List Orders', to: '/orders', resource: 'orders', menus: ['user'], icon: ListAltIcon, ready: true },
  { label: 'Data from HP', to: '/hp-data', resource: 'hp-data', menus: ['admin'], icon: DnsIcon, ready: true },
  { label: 'Product Designs', to: '/designs', resource: 'designs', menus: ['admin', 'user'], icon: BrushIcon, ready: true },
  { label: 'RE & Adestra Sync', to: '/re-n-adestra-sync', resource: 're-n-adestra-sync', menus: ['admin', 'user'], icon: SyncIcon, ready: true, feature: 'sync' },
  { label: 'Hood Send HP Manually', to: '/send-hp-manually', resource: 'send-hp-manually', menus: ['admin'], icon: SendIcon, ready: true },
  { label: 'Sample Upload', to: '/sample-uploading', resource: 'sample-uploading', menus: ['admin', 'user'], icon: CloudUploadIcon, ready: true },
  { label: 'Sample Editor', to: '/sample-editor', resource: 'sample-editor', menus: ['admin', 'user'], icon: DesignServicesIcon, ready: true },
  // Set-up of the orders flow: admin only, in a lower "Setup" group.
  { label: 'Stock', to: '/stock-items', resource: 'stock-items', menus: ['admin'], icon: Inventory2OutlinedIcon, ready: true, group: 'setup' },
  { label: 'Stores', to: '/stores', resource: 'stores', menus: ['admin'], icon: StorefrontOutlinedIcon, ready: true, group: 'setup' },
  { label: 'Routing', to: '/routing', resource: 'routing', menus: ['admin'], icon: AltRouteIcon, ready: true, group: 'setup' },
  { label: 'Products', to: '/products', resource: 'products', menus: ['admin'], icon: CategoryIcon, ready: true, group: 'setup' },
  { label: 'Resellers', to: '/resellers', resource: 'resellers', menus: ['admin'], icon: HandshakeIcon, ready: true, group: 'setup' },
  { label: 'Instances', to: '/instances', resource: 'instances', menus: ['admin'], icon: LanIcon, ready: true, group: 'setup' },
  { label: 'Print profiles', to: '/print-profiles', resource: 'print-profiles', menus: ['admin'], icon: PaletteIcon, ready: true, group: 'setup' },
  { label: 'History', to: '/history', resource: 'history', menus: ['admin'], icon: TimelineIcon, ready: true, group: 'setup' },
  { label: 'API reference', to: '/api-reference', resource: 'api-reference', menus: ['admin'], icon: ApiIcon, ready: true, group: 'setup' },
  { label: 'Caught e-mails', to: '/caught-emails', resource: 'caught-emails', menus: ['admin'], icon: MarkEmailReadIcon, ready: true, group: 'setup', needs: 'mailCatcher' },
];

/** The entries of one role's menu, in order; `siteSlug` and `features` are the signed-in user's site's. */
export function menuEntriesFor(
  role: Role | null | undefined,
  options: { siteSlug?: string | null; features?: { sync?: boolean } | null; running?: { mailCatcher?: boolean }; entries?: readonly MenuEntry[] } = {},
): MenuEntry[] {
  const { siteSlug, features, running, entries = MENU } = options;
  if (!role) return [];
  return entries.filter(
    (entry) =>
      entry.ready &&
      entry.menus.includes(role) &&
      (!entry.siteSlug || entry.siteSlug === siteSlug) &&
      (!entry.feature || role === 'admin' || Boolean(features?.[entry.feature])) &&
      (!entry.needs || Boolean(running?.[entry.needs])),
  );
}
