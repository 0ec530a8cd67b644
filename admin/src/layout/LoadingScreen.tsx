import { Box, CircularProgress, Typography } from '@mui/material';

/** "Loading..." while a lazily loaded screen or the app itself loads (spec §2). */
export function LoadingScreen() {
  return (
    <Box
      role="status"
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, py: 8, flex: 1 }}
    >
      <CircularProgress size={32} />
      <Typography color="text.secondary">Loading...</Typography>
    </Box>
  );
}

export default LoadingScreen;
