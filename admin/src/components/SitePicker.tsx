import { useGetList } from 'react-admin';
import { MenuItem, TextField } from '@mui/material';

/**
 * An admin's choice of site (client), by name. `allLabel` adds a first choice with the value ''
 * (no site: every site).
 */
export function SitePicker({
  value,
  onChange,
  label = 'Site',
  allLabel,
  width = 280,
  sx,
}: {
  value: string;
  onChange: (siteId: string) => void;
  label?: string;
  allLabel?: string;
  width?: number | string;
  sx?: object;
}) {
  const { data, isPending } = useGetList<{ id: number | string; name: string }>('sites', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  // Until the sites are there, a value with no choice would warn: show none.
  const shown = isPending && !data ? '' : value;
  return (
    <TextField
      select
      size="small"
      label={label}
      value={shown}
      onChange={(e) => onChange(e.target.value)}
      fullWidth={false}
      sx={{ width, maxWidth: '100%', ...sx }}
      // The "all" choice has the value '': show its label, not an empty box.
      slotProps={allLabel !== undefined ? { select: { displayEmpty: true }, inputLabel: { shrink: true } } : undefined}
    >
      {allLabel !== undefined ? <MenuItem value="">{allLabel}</MenuItem> : null}
      {(data ?? []).map((site) => (
        <MenuItem key={site.id} value={String(site.id)}>
          {site.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
