import { Alert, type SxProps } from '@mui/material';
import { useSearchParams } from 'react-router-dom';

/**
 * What a vendor's redirect back to our callback ended in, carried in the address
 * (?<outcome>=<ok value>|…&<message>=…), shown until dismissed (the parameters are then removed).
 */
export function RedirectOutcome({ outcomeParam, messageParam, okValue, sx }: { outcomeParam: string; messageParam: string; okValue: string; sx?: SxProps }) {
  const [params, setParams] = useSearchParams();
  const outcome = params.get(outcomeParam);
  const message = params.get(messageParam);
  if (!outcome || !message) return null;
  const dismiss = () =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete(outcomeParam);
        next.delete(messageParam);
        return next;
      },
      { replace: true },
    );
  return (
    <Alert severity={outcome === okValue ? 'success' : 'error'} onClose={dismiss} sx={sx}>
      {message}
    </Alert>
  );
}
