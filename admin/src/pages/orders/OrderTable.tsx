import { Link } from 'react-router-dom';
import {
  Box,
  Button,
  Chip,
  List,
  ListItem,
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
import { isEcard } from '../../../../common/design-doc/types';
import { formatDateTime } from '../../lib/format';
import { useSmallScreen } from '../../lib/useViewport';
import { PreflightChip } from '../../components/PreflightChip';
import { ShipBy } from '../../components/ShipBy';
import { customerNameOf, hasPreGeneratedItems, linePreflightOf, lineItemsOf, orderStatusOf, storeOrderId } from '../../providers/orders';
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

function LineItems({ order, shipped, productTypes, onSent, onErrorData, wrap = false }: LineItemsProps & { wrap?: boolean }) {
  const orderId = storeOrderId(order);
  return (
    <Stack spacing={0.5}>
      {lineItemsOf(order).map((line) => {
        const type = line.sku ? productTypes.get(line.sku) : undefined;
        return (
          <Box
            key={String(line.id)}
            data-testid={`line-${line.id}`}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, whiteSpace: wrap ? 'normal' : 'nowrap', flexWrap: wrap ? 'wrap' : 'nowrap', overflowWrap: 'anywhere' }}
          >
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
            {isEcard(type) ? (
              <Typography variant="caption" color="text.secondary">
                E-mailed, not printed
              </Typography>
            ) : (
              <>
                <OrderLinePdfButton orderId={orderId} lineId={line.id} sku={line.sku} />
                <PreflightChip {...linePreflightOf(order, line.id)} />
                <SendHpButton orderId={orderId} lineId={String(line.id)} alreadySent={false} sentBefore={shipped} onSent={onSent} onErrorData={onErrorData} />
                {/* A row of its own under the line's buttons, however the line wraps. */}
                <Typography variant="caption" component="span" sx={{ flexBasis: '100%', mt: -0.5 }}>
                  <ShipBy shipBy={line.shipBy} due={line.due} label />
                </Typography>
              </>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}

/** What a row shows of an order's sending: its status and whether HP already has it whole. */
function sendStateOf(order: OrderRecord, sent: ReadonlyMap<string, SentFromHere>) {
  const orderId = storeOrderId(order);
  const fromHere = sent.get(orderId);
  const status = fromHere?.orderStatus || orderStatusOf(order);
  const shipped = status === 'shipped';
  // Shipped, or sent whole from here: HP has it and a click would only say so.
  const sentBefore = fromHere?.whole ? { sentAt: fromHere.sentAt } : shipped && hasPreGeneratedItems(order) ? { sentAt: recordedSentAt(order) } : null;
  return { orderId, fromHere, status, shipped, sentBefore };
}

/** The row's main actions: send the whole order to HP, open its detail. */
function OrderActions({ order, sent, onSent, onErrorData }: { order: OrderRecord } & Pick<OrderTableProps, 'sent' | 'onSent' | 'onErrorData'>) {
  const { orderId, fromHere, sentBefore } = sendStateOf(order, sent);
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
      <SendHpButton
        orderId={orderId}
        alreadySent={hasPreGeneratedItems(order) || fromHere !== undefined}
        sentBefore={sentBefore}
        onSent={(outcome) => onSent(order, outcome, true)}
        onErrorData={(data) => onErrorData(order, data)}
      />
      <Button size="small" variant="outlined" component={Link} to={`/check-order?id=${encodeURIComponent(orderId)}`} startIcon={<InfoOutlinedIcon fontSize="small" />}>
        Detail
      </Button>
    </Stack>
  );
}

/**
 * Phones: one stacked row an order (name, customer, status and date, its lines, the main actions),
 * so the page keeps the screen's width.
 */
function OrderRows({ orders, siteNames, productTypes, sent, onSent, onErrorData }: OrderTableProps) {
  return (
    <List aria-label="Orders" disablePadding>
      {orders.map((order) => {
        const { orderId, status, shipped, sentBefore } = sendStateOf(order, sent);
        return (
          <ListItem
            key={String(order.id)}
            data-testid={`order-${orderId}`}
            divider
            sx={{ display: 'block', px: 2, py: 1.5, '&:nth-of-type(even)': { bgcolor: 'action.hover' } }}
          >
            <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, justifyContent: 'space-between' }}>
              <Typography variant="subtitle2" component="span" sx={{ overflowWrap: 'anywhere' }}>
                {order.data?.name || orderId}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(order.data?.created_at ?? order.createdAt)}
              </Typography>
            </Box>
            <Typography variant="body2" data-testid="customer-name" sx={{ fontWeight: shipped ? 700 : 400, overflowWrap: 'anywhere' }}>
              {customerNameOf(order)}
            </Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
              {status ? (
                <Typography variant="caption" color="text.secondary" data-testid="order-status">
                  {status}
                </Typography>
              ) : null}
              {siteNames ? (
                <Typography variant="caption" color="text.secondary">
                  {siteNames.get(String(order.siteId)) ?? `Site ${order.siteId}`}
                </Typography>
              ) : null}
              <OrderHoldChip order={order} />
            </Box>
            <Box sx={{ my: 1 }}>
              <LineItems
                order={order}
                productTypes={productTypes}
                shipped={sentBefore}
                wrap
                onSent={(outcome) => onSent(order, outcome, false)}
                onErrorData={(data) => onErrorData(order, data)}
              />
            </Box>
            <OrderActions order={order} sent={sent} onSent={onSent} onErrorData={onErrorData} />
          </ListItem>
        );
      })}
    </List>
  );
}

export function OrderTable(props: OrderTableProps) {
  const small = useSmallScreen();
  return small ? <OrderRows {...props} /> : <OrderGrid {...props} />;
}

function OrderGrid({ orders, siteNames, productTypes, sent, onSent, onErrorData }: OrderTableProps) {
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
            const { orderId, status, shipped, sentBefore } = sendStateOf(order, sent);
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
                  {/* Lines wrap: a long SKU with its buttons would push the actions out of a 1280 px window. */}
                  <LineItems
                    order={order}
                    productTypes={productTypes}
                    shipped={sentBefore}
                    wrap
                    onSent={(outcome) => onSent(order, outcome, false)}
                    onErrorData={(data) => onErrorData(order, data)}
                  />
                </TableCell>
                <TableCell align="right">
                  <OrderActions order={order} sent={sent} onSent={onSent} onErrorData={onErrorData} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
