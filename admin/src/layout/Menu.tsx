import { useEffect, useState } from 'react';
import { CanAccess, Menu as RaMenu, usePermissions, useSidebarState } from 'react-admin';
import { Badge, Divider, ListSubheader } from '@mui/material';
import HomeIcon from '@mui/icons-material/Home';
import type { Role } from '../../../common/api/sites';
import { menuEntriesFor, type MenuEntry } from './menuConfig';
import { useSiteInfo } from './SiteInfoContext';
import { mailCatcherRunning } from '../providers/mailCatcher';
import { attentionSummary } from '../../../common/api/attention';
import { useAttention } from '../pages/attention/useAttention';

// The open sidebar keeps the spec's ~188 px: long labels ("Hood Send HP Manually") wrap rather than
// being cut. Closed, only the icons show (the label is the item's tooltip), so nothing may wrap.
const wrapWhenOpen = (open: boolean) =>
  open ? { whiteSpace: 'normal', '& .MuiTypography-noWrap': { whiteSpace: 'normal', overflow: 'visible', lineHeight: 1.3, overflowWrap: 'anywhere' } } : {};

/** The entry's count from the shared Needs attention poll, and what it counts in words; none at zero. */
function useEntryCount(entry: MenuEntry): { count: number; critical: boolean; spoken: string } | null {
  const { answer } = useAttention();
  if (!answer || !entry.badge) return null;
  const count = entry.badge === 'held' ? answer.counts.held : answer.counts.total;
  if (!count) return null;
  if (entry.badge === 'held') return { count, critical: false, spoken: `${count} held by preflight` };
  return { count, critical: answer.counts.critical > 0, spoken: attentionSummary(answer.counts) };
}

/**
 * The entry's icon, with its count (on the icon, so it shows with the sidebar closed too): red while
 * anything is critical, amber otherwise. The badge is hidden from screen readers (MUI): the item's name says it.
 */
function EntryIcon({ entry }: { entry: MenuEntry }) {
  const counted = useEntryCount(entry);
  if (!counted) return <entry.icon />;
  return (
    <Badge badgeContent={counted.count} max={999} color={counted.critical ? 'error' : 'warning'}>
      <entry.icon />
    </Badge>
  );
}

/** A menu entry; its accessible name carries the count its badge shows ("Needs attention, 4 problems, 1 critical"). */
function EntryItem({ entry, open }: { entry: MenuEntry; open: boolean }) {
  const counted = useEntryCount(entry);
  return (
    <RaMenu.Item
      to={entry.to}
      primaryText={entry.label}
      leftIcon={<EntryIcon entry={entry} />}
      aria-label={counted ? `${entry.label}, ${counted.spoken}` : undefined}
      sx={wrapWhenOpen(open)}
    />
  );
}

function MenuItems({ entries, open }: { entries: readonly MenuEntry[]; open: boolean }) {
  return entries.map((entry) => (
    <CanAccess key={entry.to} resource={entry.resource} action="list">
      <EntryItem entry={entry} open={open} />
    </CanAccess>
  ));
}

/** Whether the server runs the demo's mail catcher: asked once, by admins only (its list answers 404 when not). */
function useMailCatcherRunning(role: Role | null | undefined): boolean {
  const [running, setRunning] = useState(false);
  useEffect(() => {
    if (role !== 'admin') return;
    const abort = new AbortController();
    void mailCatcherRunning(abort.signal).then((yes) => {
      if (!abort.signal.aborted) setRunning(yes);
    });
    return () => abort.abort();
  }, [role]);
  return running;
}

export function Menu() {
  const { permissions } = usePermissions<Role | null>();
  const { site } = useSiteInfo();
  const [open] = useSidebarState();
  const mailCatcher = useMailCatcherRunning(permissions);
  const entries = menuEntriesFor(permissions, { siteSlug: site?.slug, features: site?.features, running: { mailCatcher } });
  const everyday = entries.filter((entry) => !entry.group);
  const setup = entries.filter((entry) => entry.group === 'setup');
  return (
    <RaMenu>
      <RaMenu.Item to="/" primaryText="Home" leftIcon={<HomeIcon />} />
      <MenuItems entries={everyday} open={open} />
      {setup.length ? (
        <>
          <Divider sx={{ my: 1 }} />
          {open ? (
            <ListSubheader component="div" disableSticky sx={{ lineHeight: '28px', bgcolor: 'transparent', fontSize: 12, textTransform: 'uppercase' }}>
              Setup
            </ListSubheader>
          ) : null}
          <MenuItems entries={setup} open={open} />
        </>
      ) : null}
    </RaMenu>
  );
}

export default Menu;
