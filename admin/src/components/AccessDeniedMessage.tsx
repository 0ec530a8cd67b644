import { Box, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { usePageTitle } from '../layout/usePageTitle';

export function AccessDeniedMessage() {
  usePageTitle('Access denied');
  return (
    <Box role="alert" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, py: 8, color: 'text.secondary' }}>
      <LockIcon sx={{ fontSize: 64 }} />
      <Typography variant="h5" component="h1">
        Access denied
      </Typography>
      <Typography>You don&apos;t have the right permissions to access this page</Typography>
    </Box>
  );
}

export default AccessDeniedMessage;
