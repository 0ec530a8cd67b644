import { Box, Link, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { OrderAddress, OrderRecord } from '../../../../common/api/orders';
import { JsonBlock } from '../../components/JsonBlock';
import { formatDateTime } from '../../lib/format';
import { useProductTypes } from '../../lib/useProductTypes';
import { isEcard } from '../../../../common/design-doc/types';
import { PreflightChip } from '../../components/PreflightChip';
import { ShipBy } from '../../components/ShipBy';
import { customerNameOf, linePreflightOf, lineItemsOf, madeByLabel, orderStatusOf, storeOrderId } from '../../providers/orders';
import { DetailList } from './DetailList';
import { LineRoute } from './LineRoute';
import type { LineProduction } from '../../../../common/api/orders';

function addressOf(address: OrderAddress | null | undefined): string {
  if (!address) return '';
  const keys: (keyof OrderAddress)[] = ['name', 'address1', 'address2', 'city', 'province', 'zip', address.country ? 'country' : 'country_code'];
  return keys
    .map((k) => address[k])
    .filter((v) => typeof v === 'string' && v !== '')
    .join(', ');
}

/** "2" — or "1 of 2" when edits or refunds left fewer units than were ordered (what prints). */
function unitsLabel(line: { quantity?: number | null; current_quantity?: number | null }): string {
  const ordered = line.quantity ?? '';
  if (line.current_quantity === null || line.current_quantity === undefined || line.current_quantity === line.quantity) return String(ordered);
  return `${line.current_quantity} of ${ordered}`;
}

/** The online store's data of the order: its fields, line items and the raw record. */
export function ShopifyDataTab({ order }: { order: OrderRecord }) {
  const data = order.data ?? { id: storeOrderId(order) };
  const tracking = data.tracking;
  // Where each line is made, as the server says (in house, the provider, or nothing decided yet).
  const production = Array.isArray(data.production) ? (data.production as LineProduction[]) : [];
  const productTypes = useProductTypes();
  const madeAt = (lineId: string, sku: string | null | undefined) => {
    // An e-card is e-mailed by the pipeline (the Pipeline panel), never made.
    if (sku && isEcard(productTypes.get(sku))) return 'E-mailed (e-card)';
    const p = production.find((x) => x.lineId === lineId);
    const label = madeByLabel(p?.madeBy, p?.printJobId);
    if (!p?.withdrawn) return label;
    // A provider's line was never in Jobs: it is not made (HP was asked to cancel it), it did not "leave the queue".
    return p.madeBy === 'provider' ? `${label}: not made (${p.withdrawn})` : `${label}: left the Jobs queue unprinted (${p.withdrawn})`;
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <DetailList
        items={[
          ['Order Id', storeOrderId(order)],
          ['Order Number', data.order_number === null || data.order_number === undefined ? '' : String(data.order_number)],
          ['Order Name', data.name ?? ''],
          ['Created At', formatDateTime(data.created_at ?? order.createdAt)],
          ['Status', orderStatusOf(order)],
          ['Payment', typeof data.financial_status === 'string' ? data.financial_status : ''],
          ['Customer Name', customerNameOf(order)],
          ['Email', data.email ?? data.customer?.email ?? ''],
          ['Shipping Address', addressOf(data.shipping_address)],
          ['HP Order Id', data.hpOrderId ?? ''],
          [
            'Tracking',
            tracking?.number ? (
              <>
                {tracking.number}
                {tracking.method ? ` (${tracking.method})` : ''}
                {tracking.url ? (
                  <>
                    {' '}
                    <Link href={tracking.url} target="_blank" rel="noopener noreferrer">
                      track
                    </Link>
                  </>
                ) : null}
              </>
            ) : (
              ''
            ),
          ],
        ]}
      />
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Line items
        </Typography>
        <TableContainer>
          <Table size="small" aria-label="Line items">
            <TableHead>
              <TableRow>
                <TableCell>Line Id</TableCell>
                <TableCell>Name</TableCell>
                <TableCell>Product Id</TableCell>
                <TableCell>SKU</TableCell>
                <TableCell align="right">Quantity</TableCell>
                <TableCell>Made by</TableCell>
                <TableCell>Routed</TableCell>
                <TableCell>Ship by</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lineItemsOf(order).map((line) => (
                <TableRow key={String(line.id)}>
                  <TableCell>{String(line.id)}</TableCell>
                  <TableCell>{line.name ?? line.title ?? ''}</TableCell>
                  <TableCell>{line.product_id === null || line.product_id === undefined ? '' : String(line.product_id)}</TableCell>
                  <TableCell>{line.sku ?? ''}</TableCell>
                  <TableCell align="right">{unitsLabel(line)}</TableCell>
                  <TableCell>
                    {madeAt(String(line.id), line.sku)}
                    <PreflightChip {...linePreflightOf(order, line.id)} />
                  </TableCell>
                  <TableCell>
                    <LineRoute route={line.route} />
                  </TableCell>
                  <TableCell>
                    <ShipBy shipBy={line.shipBy} due={line.due} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Box>
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Raw data
        </Typography>
        <JsonBlock value={order.data} label="Shopify raw data" />
      </Box>
    </Box>
  );
}
