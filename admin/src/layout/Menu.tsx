import { useEffect, useState } from 'react';
import { CanAccess, Menu as RaMenu, usePermissions, useSidebarState } from 'react-admin';
import { Badge, Divider, ListSubheader } from '@mui/material';
import HomeIcon from '@mui/icons-material/Home';
import type { Role } from '../../../common/api/sites';
import { menuEntriesFor, type MenuEntry } from './menuConfig';
import { useSiteInfo } from './SiteInfoContext';
import { mailCatcherRunning } from '../providers/mailCatcher';
import { useAttention } from '../pages/attention/useAttention';

// The open sidebar keeps the spec's ~188 px: long labels ("Hood Send HP Manually") wrap rather than
// being cut. Closed, only the icons show (the label is the item's tooltip), so nothing may wrap.
const wrapWhenOpen = (open: boolean) =>
  open ? { whiteSpace: 'normal', '& .MuiTypography-noWrap': { whiteSpace: 'normal', overflow: 'visible', lineHeight: 1.3, overflowWrap: 'anywhere' } } : {};

/**
 * The entry's icon, with its count from the shared Needs attention poll (on the icon, so it shows
 * with the sidebar closed too): red while anything is critical, amber otherwise; none at zero.
 */
function EntryIcon({ entry }: { entry: MenuEntry }) {
  const { answer } = useAttention();
  const count = !answer || !entry.badge ? 0 : entry.badge === 'held' ? answer.counts.held : answer.counts.total;
  if (!count) return <entry.icon />;
  const critical = entry.badge === 'attention' && answer!.counts.critical > 0;
  const what = entry.badge === 'held' ? 'held by preflight' : critical ? `need attention, ${answer!.counts.critical} critical` : 'need attention';
  return (
    <Badge badgeContent={count} max={999} color={critical ? 'error' : 'warning'} slotProps={{ badge: { 'aria-label': `${count} ${what}` } as object }}>
      <entry.icon />
    </Badge>
  );
}

function MenuItems({ entries, open }: { entries: readonly MenuEntry[]; open: boolean }) {
  return entries.map((entry) => (
    <CanAccess key={entry.to} resource={entry.resource} action="list">
      <RaMenu.Item to={entry.to} primaryText={entry.label} leftIcon={<EntryIcon entry={entry} />} sx={wrapWhenOpen(open)} />
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
