import { FunctionField, type FunctionFieldProps } from 'react-admin';
import { Box } from '@mui/material';
import type { Site } from '../../../../common/api/sites';
import { formatDate } from '../../lib/format';

export function ColourSwatchField(props: Omit<FunctionFieldProps<Site>, 'render'>) {
  return (
    <FunctionField<Site>
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

export function LogoField(props: Omit<FunctionFieldProps<Site>, 'render'>) {
  return (
    <FunctionField<Site>
      {...props}
      render={(record) =>
        record.logo ? (
          <Box component="img" src={record.logo} alt={`${record.name} logo`} sx={{ maxHeight: 32, maxWidth: 96, objectFit: 'contain', display: 'block' }} />
        ) : null
      }
    />
  );
}

export function DateField(props: Omit<FunctionFieldProps<Site>, 'render'> & { source: keyof Site & string }) {
  const { source, ...rest } = props;
  return <FunctionField<Site> {...rest} source={source} render={(record) => formatDate(record[source] as string | undefined)} />;
}
