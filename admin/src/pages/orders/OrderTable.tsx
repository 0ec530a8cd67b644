import { Link } from 'react-router-dom';
import {
  Box,
  Button,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import type { OrderRecord, SendOutcome } from '../../../../common/api/orders';
import { formatDateTime } from '../../lib/format';
import { customerNameOf, hasPreGeneratedItems, lineItemsOf, orderStatusOf, storeOrderId } from '../../providers/orders';
import { OrderLinePdfButton } from './OrderLinePdfButton';
import { OrderHoldChip } from './OrderHoldChip';
import { SendHpButton } from './SendHpButton';

export interface OrderTableProps {
  orders: readonly OrderRecord[];
  /** Site names by id: the Client column shows only when given (the all-clients view). */
  siteNames?: ReadonlyMap<string, string>;
  /** Product type by SKU (known designs). */
  productTypes: ReadonlyMap<string, string>;
  /** Orders sent from this screen since the list loaded, by store order id: their answer shows in the row. */
  sent: ReadonlyMap<string, SentFromHere>;
  onSent: (order: OrderRecord, outcome: SendOutcome, whole: boolean) => void;
  onErrorData: (order: OrderRecord, data: unknown) => void;
}

/** The send answer of an order sent (or found sent) from this screen. */
export interface SentFromHere {
  sentAt: string | null;
  orderStatus: string | null;
  /** The whole order went (not only one of its lines). */
  whole: boolean;
}

/** When HP took the whole order, as the order record keeps it. */
function recordedSentAt(order: OrderRecord): string | null {
  const hpOrders = order.data?.hpOrders as Record<string, { sentAt?: string }> | undefined;
  return hpOrders?.[storeOrderId(order)]?.sentAt ?? order.data?.preGeneratedHPItems?.find((i) => i.sentAt)?.sentAt ?? null;
}

/** Spec §2: orders without line items are not listed. */
export function visibleOrders(orders: readonly OrderRecord[]): OrderRecord[] {
  return orders.filter((order) => lineItemsOf(order).length > 0);
}

function OrderRef({ order }: { order: OrderRecord }) {
  const parts = [storeOrderId(order), order.data?.order_number, order.data?.name].map((p) => (p === null || p === undefined ? '' : String(p)));
  return <Typography variant="body2">{parts.filter(Boolean).join(' / ')}</Typography>;
}

interface LineItemsProps {
  order: OrderRecord;
  /** HP has the whole order: its lines' buttons are disabled too. */
  shipped: { sentAt: string | null } | null;
  productTypes: ReadonlyMap<string, string>;
  onSent: (outcome: SendOutcome) => void;
  onErrorData: (data: unknown) => void;
}

function LineItems({ order, shipped, productTypes, onSent, onErrorData }: LineItemsProps) {
  const orderId = storeOrderId(order);
  return (
    <Stack spacing={0.5}>
      {lineItemsOf(order).map((line) => {
        const type = line.sku ? productTypes.get(line.sku) : undefined;
        return (
          <Box key={String(line.id)} data-testid={`line-${line.id}`} sx={{ display: 'flex', alignItems: 'center', gap: 1, whiteSpace: 'nowrap' }}>
            <Typography variant="body2" component="span">
              {type ? (
                <Chip label={type} size="small" color="secondary" variant="outlined" sx={{ mr: 0.75, height: 20, fontSize: 11 }} />
              ) : null}
              {line.sku || '(no SKU)'}
              {line.quantity && line.quantity > 1 ? (
                <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.5 }}>
                  × {line.quantity}
                </Typography>
              ) : null}
            </Typography>
            <OrderLinePdfButton orderId={orderId} lineId={line.id} sku={line.sku} />
            <SendHpButton orderId={orderId} lineId={String(line.id)} alreadySent={false} sentBefore={shipped} onSent={onSent} onErrorData={onErrorData} />
          </Box>
        );
      })}
    </Stack>
  );
}

export function OrderTable({ orders, siteNames, productTypes, sent, onSent, onErrorData }: OrderTableProps) {
  const showClient = siteNames !== undefined;
  return (
    <TableContainer>
      <Table size="small" aria-label="Orders">
        <TableHead>
          <TableRow>
            {showClient ? <TableCell>Client</TableCell> : null}
            <TableCell>Timestamp</TableCell>
            <TableCell>Customer Name</TableCell>
            <TableCell>Order Id / Number / Name</TableCell>
            <TableCell>SKU</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {orders.map((order) => {
            const orderId = storeOrderId(order);
            const fromHere = sent.get(orderId);
            const status = fromHere?.orderStatus || orderStatusOf(order);
            const shipped = status === 'shipped';
            // Shipped, or sent whole from here: HP has it and a click would only say so.
            const sentBefore = fromHere?.whole ? { sentAt: fromHere.sentAt } : shipped && hasPreGeneratedItems(order) ? { sentAt: recordedSentAt(order) } : null;
            return (
              <TableRow
                key={String(order.id)}
                data-testid={`order-${orderId}`}
                sx={{ '&:nth-of-type(even)': { bgcolor: 'action.hover' }, '& > td': { verticalAlign: 'top' } }}
              >
                {showClient ? <TableCell>{siteNames.get(String(order.siteId)) ?? `Site ${order.siteId}`}</TableCell> : null}
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(order.data?.created_at ?? order.createdAt)}</TableCell>
                <TableCell sx={{ minWidth: 140 }}>
                  <Typography variant="body2" data-testid="customer-name" sx={{ fontWeight: shipped ? 700 : 400 }}>
                    {customerNameOf(order)}
                  </Typography>
                  {status ? (
                    <Typography variant="caption" color="text.secondary" data-testid="order-status">
                      {status}
                    </Typography>
                  ) : null}
                  <OrderHoldChip order={order} />
                </TableCell>
                <TableCell>
                  <OrderRef order={order} />
                </TableCell>
                <TableCell>
                  <LineItems
                    order={order}
                    productTypes={productTypes}
                    shipped={sentBefore}
                    onSent={(outcome) => onSent(order, outcome, false)}
                    onErrorData={(data) => onErrorData(order, data)}
                  />
                </TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    <SendHpButton
                      orderId={orderId}
                      alreadySent={hasPreGeneratedItems(order) || fromHere !== undefined}
                      sentBefore={sentBefore}
                      onSent={(outcome) => onSent(order, outcome, true)}
                      onErrorData={(data) => onErrorData(order, data)}
                    />
                    <Button
                      size="small"
                      variant="outlined"
                      component={Link}
                      to={`/check-order?id=${encodeURIComponent(orderId)}`}
                      startIcon={<InfoOutlinedIcon fontSize="small" />}
                    >
                      Detail
                    </Button>
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
