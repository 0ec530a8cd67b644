import { keyframes } from '@emotion/react';
import { Box, Typography } from '@mui/material';

export const WELCOME_DURATION_MS = 1200;
/** Below this window width the welcome animation is skipped (spec §2). */
export const WELCOME_MIN_WIDTH = 480;

const welcome = keyframes`
  0%   { opacity: 0; transform: scale(0.85); }
  35%  { opacity: 1; transform: scale(1); }
  80%  { opacity: 1; transform: scale(1.02); }
  100% { opacity: 0; transform: scale(1.08); }
`;

export function WelcomeAnimation({ firstName }: { firstName: string }) {
  return (
    <Box
      role="status"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (theme) => theme.zIndex.modal + 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
      }}
    >
      <Typography
        variant="h3"
        component="p"
        sx={{
          fontWeight: 700,
          color: 'primary.main',
          animation: `${welcome} ${WELCOME_DURATION_MS}ms ease-in-out forwards`,
        }}
      >
        Welcome, {firstName}
      </Typography>
    </Box>
  );
}
