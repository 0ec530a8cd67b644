import { Link as RouterLink } from 'react-router-dom';
import { useGetIdentity, usePermissions } from 'react-admin';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import { usePageTitle } from '../../layout/usePageTitle';
import { AttentionPage } from '../attention/AttentionPage';
import { LowStockCard } from './LowStockCard';

/**
 * Staff (operators) land on Needs attention under their greeting: problems first. Admins keep the
 * greeting: they look after every site and its set-up, and reach Needs attention (every site's)
 * from the menu, whose badge counts it. Both see the stock running low under the greeting, with
 * the days each item lasts, so an order goes out before the floor runs dry.
 */
export function HomePage() {
  const { permissions } = usePermissions();
  if (permissions === 'user') {
    return (
      <>
        <Greeting compact />
        <LowStockCard />
        <AttentionPage />
      </>
    );
  }
  return <HomeGreeting />;
}

function HomeGreeting() {
  usePageTitle('Home');
  return (
    <>
      <Greeting />
      <LowStockCard />
    </>
  );
}

/** `compact`: a line above Needs attention (staff's home), whose heading is the page's. */
function Greeting({ compact = false }: { compact?: boolean }) {
  const { identity } = useGetIdentity();
  const firstName = (identity?.firstName as string | undefined) ?? identity?.fullName ?? '';
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent sx={compact ? { p: 2, '&:last-child': { pb: 2 }, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' } : { p: 4 }}>
        <Typography variant={compact ? 'h6' : 'h4'} component={compact ? 'p' : 'h1'} sx={{ fontWeight: 700, mb: compact ? 0 : 2 }}>
          Welcome, {firstName}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          {/* The operator's guide (docs/operators-guide.md), built into the app at /manual. */}
          <Button variant="outlined" component={RouterLink} to="/manual" startIcon={<MenuBookIcon />} sx={{ textTransform: 'none' }}>
            manual
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

export default HomePage;
