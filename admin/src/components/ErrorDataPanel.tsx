import { Alert, AlertTitle, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { JsonBlock } from './JsonBlock';

/** Spec §8: re-submit and send-HP failures that carry errorMes also show it in an "Error Data" panel. */
export function ErrorDataPanel({ data, title, onClose }: { data: unknown; title?: string; onClose?: () => void }) {
  if (data === undefined) return null;
  return (
    <Alert
      severity="error"
      variant="outlined"
      role="region"
      aria-label="Error Data"
      sx={{ my: 2, '& .MuiAlert-message': { width: '100%', minWidth: 0 } }}
      action={
        onClose ? (
          <IconButton size="small" aria-label="Close Error Data" onClick={onClose}>
            <CloseIcon fontSize="small" />
          </IconButton>
        ) : undefined
      }
    >
      <AlertTitle>Error Data{title ? ` (${title})` : ''}</AlertTitle>
      <JsonBlock value={data} maxHeight={260} />
    </Alert>
  );
}
