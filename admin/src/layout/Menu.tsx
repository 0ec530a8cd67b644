import { CanAccess, Menu as RaMenu, usePermissions } from 'react-admin';
import HomeIcon from '@mui/icons-material/Home';
import type { Role } from '../providers/session';
import { menuEntriesFor } from './menuConfig';
import { useSiteInfo } from './SiteInfoContext';

export function Menu() {
  const { permissions } = usePermissions<Role | null>();
  const { site } = useSiteInfo();
  const entries = menuEntriesFor(permissions, { siteSlug: site?.slug });
  return (
    <RaMenu>
      <RaMenu.Item to="/" primaryText="Home" leftIcon={<HomeIcon />} />
      {entries.map((entry) => (
        <CanAccess key={entry.to} resource={entry.resource} action="list">
          <RaMenu.Item to={entry.to} primaryText={entry.label} leftIcon={<entry.icon />} />
        </CanAccess>
      ))}
    </RaMenu>
  );
}

export default Menu;
