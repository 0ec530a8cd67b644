import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

/** Labelled facts, label then value a line, as a description list (a sync result, a batch). */
export function FactList({ rows, testId, spacious = false }: { rows: ReadonlyArray<readonly [string, ReactNode]>; testId?: string; spacious?: boolean }) {
  return (
    <Box component="dl" data-testid={testId} sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: spacious ? 3 : 2, rowGap: spacious ? 1 : 0.5, m: 0 }}>
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
