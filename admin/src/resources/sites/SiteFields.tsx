import { FunctionField, type FunctionFieldProps } from 'react-admin';
import { Box } from '@mui/material';
import { formatDate } from '../../lib/format';
import type { SiteRecord } from './types';

export function ColourSwatchField(props: Omit<FunctionFieldProps<SiteRecord>, 'render'>) {
  return (
    <FunctionField<SiteRecord>
      {...props}
      render={(record) => (
        <Box
          title={record.theme?.mainColor ?? '#000000'}
          aria-label={`Main colour ${record.theme?.mainColor ?? '#000000'}`}
          sx={{
            width: 24,
            height: 24,
            borderRadius: '50%',
            border: 1,
            borderColor: 'divider',
            bgcolor: record.theme?.mainColor || '#000000',
          }}
        />
      )}
    />
  );
}

export function LogoField(props: Omit<FunctionFieldProps<SiteRecord>, 'render'>) {
  return (
    <FunctionField<SiteRecord>
      {...props}
      render={(record) =>
        record.logo ? (
          <Box component="img" src={record.logo} alt={`${record.name} logo`} sx={{ maxHeight: 32, maxWidth: 96, objectFit: 'contain', display: 'block' }} />
        ) : null
      }
    />
  );
}

export function DateField(props: Omit<FunctionFieldProps<SiteRecord>, 'render'> & { source: keyof SiteRecord & string }) {
  const { source, ...rest } = props;
  return <FunctionField<SiteRecord> {...rest} source={source} render={(record) => formatDate(record[source] as string | undefined)} />;
}
