import { useListContext } from 'react-admin';
import { Typography } from '@mui/material';

/** Server error strings are shown as-is, in red, on list screens (spec §8). */
export function ListError() {
  const { error } = useListContext();
  if (!error) return null;
  return (
    <Typography color="error" role="alert" sx={{ p: 2 }}>
      {error instanceof Error ? error.message : String(error)}
    </Typography>
  );
}
