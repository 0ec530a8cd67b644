import { Box } from '@mui/material';

/** Pretty-printed JSON (strings as they are), scrollable, for raw provider and store data. */
export function JsonBlock({ value, label, maxHeight = 420 }: { value: unknown; label?: string; maxHeight?: number }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <Box
      component="pre"
      aria-label={label}
      sx={{
        m: 0,
        p: 1.5,
        maxHeight,
        overflow: 'auto',
        bgcolor: 'grey.100',
        borderRadius: 1,
        fontSize: 12,
        lineHeight: 1.5,
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
      }}
    >
      {text ?? ''}
    </Box>
  );
}
