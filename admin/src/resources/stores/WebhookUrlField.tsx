import { useRecordContext } from 'react-admin';
import { Box, Typography } from '@mui/material';
import type { Store } from '../../../../common/api/orders';
import { CopyButton } from '../../components/CopyButton';

/** The URL to paste into Shopify's webhook settings, ready to copy. */
export function WebhookUrlField(_props: { label?: string; sortable?: boolean }) {
  const record = useRecordContext<Store>();
  if (!record?.webhookUrl) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
      <Typography variant="body2" component="code" sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>
        {record.webhookUrl}
      </Typography>
      <CopyButton text={record.webhookUrl} label="Copy webhook URL" />
    </Box>
  );
}
