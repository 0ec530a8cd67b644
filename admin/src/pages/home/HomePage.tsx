import { useState } from 'react';
import { useGetIdentity } from 'react-admin';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import { usePageTitle } from '../../layout/usePageTitle';

export function HomePage() {
  usePageTitle('Home');
  const { identity } = useGetIdentity();
  const [showManual, setShowManual] = useState(false);
  const firstName = (identity?.firstName as string | undefined) ?? identity?.fullName ?? '';
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent sx={{ p: 4 }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 2 }}>
          Welcome, {firstName}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <Button variant="outlined" startIcon={<MenuBookIcon />} onClick={() => setShowManual(true)} sx={{ textTransform: "none" }}>
            manual
          </Button>
          {showManual ? (
            <Typography color="text.secondary" role="status">
              Coming soon
            </Typography>
          ) : null}
        </Box>
      </CardContent>
    </Card>
  );
}

export default HomePage;
