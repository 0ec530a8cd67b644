// The tracking of a Mark shipped (Check order's dialog, the scan station): carrier, tracking number
// and an optional tracking URL, each showing the server's sentence about it.
import { TextField } from '@mui/material';
import { ApiError } from '../providers/api';
import { errorMessage } from '../lib/format';

export interface Tracking {
  carrier: string;
  trackingNumber: string;
  trackingUrl: string;
}

export const NO_TRACKING: Tracking = { carrier: '', trackingNumber: '', trackingUrl: '' };

const FIELDS = ['carrier', 'trackingNumber', 'trackingUrl'];

/** A refused Mark shipped: the sentence per tracking field, and the refusal itself when it is about none of them. */
export function trackingRefusal(error: unknown): { errors: Record<string, string>; problem: string | null } {
  const errors = error instanceof ApiError ? error.fieldErrors : {};
  return { errors, problem: Object.keys(errors).some((k) => FIELDS.includes(k)) ? null : errorMessage(error) };
}

export function TrackingFields({ value, onChange, errors }: { value: Tracking; onChange: (next: Tracking) => void; errors: Record<string, string> }) {
  const set = (key: keyof Tracking) => (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value });
  return (
    <>
      <TextField label="Carrier" required value={value.carrier} onChange={set('carrier')} error={Boolean(errors.carrier)} helperText={errors.carrier ?? 'e.g. Royal Mail'} />
      <TextField label="Tracking number" required value={value.trackingNumber} onChange={set('trackingNumber')} error={Boolean(errors.trackingNumber)} helperText={errors.trackingNumber} />
      <TextField label="Tracking URL" value={value.trackingUrl} onChange={set('trackingUrl')} error={Boolean(errors.trackingUrl)} helperText={errors.trackingUrl ?? 'Optional'} />
    </>
  );
}
