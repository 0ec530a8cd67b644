import { AppBar as RaAppBar, LoadingIndicator, TitlePortal, useGetIdentity, useLogout, type AppBarProps } from 'react-admin';
import { Box, IconButton, Tooltip, Typography } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import { APP_BAR_HEIGHT } from './theme';
import { HeaderSearch } from './HeaderSearch';
import { useSiteInfo } from './SiteInfoContext';

/** The site's logo when it has one, else its name (white label, spec §1). */
function SiteBrand() {
  const { site } = useSiteInfo();
  if (!site) return null;
  return (
    // On a phone the brand yields room to the page's title (shortened, never pushing it out).
    <Box sx={{ display: 'flex', alignItems: 'center', mr: 2, height: '100%', minWidth: 0, flexShrink: { xs: 1, sm: 0 }, maxWidth: { xs: '34%', sm: 'none' } }}>
      {site.logo ? (
        <Box component="img" src={site.logo} alt={site.name} sx={{ maxHeight: 36, maxWidth: { xs: 96, sm: 140 }, objectFit: 'contain' }} />
      ) : (
        <Typography variant="h6" component="span" noWrap sx={{ fontWeight: 700, fontSize: { xs: '1rem', sm: undefined } }}>
          {site.name}
        </Typography>
      )}
    </Box>
  );
}

function SignedInUser() {
  const { identity } = useGetIdentity();
  const logout = useLogout();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      {identity?.fullName ? (
        // Below sm the name gives its room to the page's title; Logout stays.
        <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap', display: { xs: 'none', sm: 'block' } }} data-testid="appbar-user-name">
          {identity.fullName}
        </Typography>
      ) : null}
      <Tooltip title="Logout">
        <IconButton color="inherit" aria-label="Logout" onClick={() => logout()}>
          <LogoutIcon />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

export function AppBar(props: AppBarProps) {
  return (
    <RaAppBar
      {...props}
      color="primary"
      userMenu={false}
      toolbar={
        <>
          <LoadingIndicator />
          <SignedInUser />
        </>
      }
      sx={{
        '& .RaAppBar-toolbar': { minHeight: APP_BAR_HEIGHT, height: APP_BAR_HEIGHT },
      }}
    >
      <SiteBrand />
      {/* On a phone a long title wraps onto a second, smaller line rather than being cut ("Chec…"). */}
      <TitlePortal
        sx={{
          minWidth: 0,
          whiteSpace: { xs: 'normal', sm: 'nowrap' },
          fontSize: { xs: '1rem', sm: undefined },
          lineHeight: { xs: 1.15, sm: undefined },
          display: { xs: '-webkit-box', sm: 'block' },
          WebkitLineClamp: 2,
          WebkitBoxOrient: 'vertical',
        }}
      />
      <HeaderSearch />
    </RaAppBar>
  );
}

export default AppBar;
