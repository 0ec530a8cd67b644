import { Link } from 'react-router-dom';
import {
  Box,
  Button,
  Checkbox,
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
import type { JobSelection } from '../print-jobs/useJobSelection';
import { orderKey } from './MakeInHouse';

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
  /** Tick boxes for Make in house. */
  selection?: JobSelection;
}

/**
 * Why nothing of an order can be printed or sent from the list (its buttons are disabled, saying
 * this), or null: cancelled in the store, or shipped (Re-run on Check order sends a shipped one again).
 */
export function orderBlockedReason(order: OrderRecord, status: string): string | null {
  const cancelled = order.data?.cancelled as { reason?: string | null } | null | undefined;
  if (cancelled) return `Cancelled in the store${cancelled.reason ? ` (${cancelled.reason})` : ''}: nothing of it is printed or sent`;
  if (status === 'shipped') return 'Shipped: nothing left to print or send (Re-run on Detail sends it again)';
  return null;
}

/** One ship-by for the order when its lines share it (they nearly always do); undefined when they differ. */
function sharedShipBy(order: OrderRecord) {
  const lines = lineItemsOf(order).filter((l) => l.shipBy);
  if (!lines.length) return undefined;
  return lines.every((l) => l.shipBy === lines[0].shipBy && l.due === lines[0].due) ? { shipBy: lines[0].shipBy, due: lines[0].due } : undefined;
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
  /** Cancelled or shipped: every button is disabled, saying this. */
  blocked: string | null;
  productTypes: ReadonlyMap<string, string>;
  onSent: (outcome: SendOutcome) => void;
  onErrorData: (data: unknown) => void;
}

function LineItems({ order, shipped, blocked, productTypes, onSent, onErrorData, wrap = false }: LineItemsProps & { wrap?: boolean }) {
  const orderId = storeOrderId(order);
  // The order's ship-by shows once beside its customer; a line says its own only when they differ.
  const ownShipBy = sharedShipBy(order) === undefined;
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
                <OrderLinePdfButton orderId={orderId} lineId={line.id} sku={line.sku} blocked={blocked} />
                <SendHpButton orderId={orderId} lineId={String(line.id)} alreadySent={false} sentBefore={shipped} blocked={blocked} onSent={onSent} onErrorData={onErrorData} />
                <PreflightChip {...linePreflightOf(order, line.id)} />
                {ownShipBy ? (
                  <Typography variant="caption" component="span">
                    <ShipBy shipBy={line.shipBy} due={line.due} label />
                  </Typography>
                ) : null}
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
  return { orderId, fromHere, status, shipped, sentBefore, blocked: orderBlockedReason(order, status) };
}

/** The row's main actions: send the whole order to HP, open its detail. */
function OrderActions({ order, sent, onSent, onErrorData }: { order: OrderRecord } & Pick<OrderTableProps, 'sent' | 'onSent' | 'onErrorData'>) {
  const { orderId, fromHere, sentBefore, blocked } = sendStateOf(order, sent);
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
      <SendHpButton
        orderId={orderId}
        alreadySent={hasPreGeneratedItems(order) || fromHere !== undefined}
        sentBefore={sentBefore}
        blocked={blocked}
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
/** A row's tick box (its label names the order for a screen reader). */
function SelectOrder({ order, selection }: { order: OrderRecord; selection: JobSelection }) {
  const key = orderKey(order.siteId, storeOrderId(order));
  return (
    <Checkbox
      size="small"
      checked={selection.isSelected(key)}
      onChange={() => selection.toggle(key)}
      slotProps={{ input: { 'aria-label': `Select order ${order.data?.name || storeOrderId(order)}` } }}
      sx={{ p: 0.5 }}
    />
  );
}

/** The order's ship-by, once, when its lines share it. */
function OrderShipBy({ order }: { order: OrderRecord }) {
  const shared = sharedShipBy(order);
  if (!shared) return null;
  return (
    <Typography variant="caption" component="div">
      <ShipBy shipBy={shared.shipBy} due={shared.due} label />
    </Typography>
  );
}

function OrderRows({ orders, siteNames, productTypes, sent, onSent, onErrorData, selection }: OrderTableProps) {
  return (
    <List aria-label="Orders" disablePadding>
      {selection && orders.length ? (
        <Box component="label" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, pt: 1 }}>
          <Checkbox size="small" checked={selection.page.checked} indeterminate={selection.page.indeterminate} onChange={selection.page.toggle} sx={{ p: 0.5 }} />
          <Typography variant="body2">Select every order shown</Typography>
        </Box>
      ) : null}
      {orders.map((order) => {
        const { orderId, status, shipped, sentBefore, blocked } = sendStateOf(order, sent);
        return (
          <ListItem
            key={String(order.id)}
            data-testid={`order-${orderId}`}
            divider
            sx={{ display: 'block', px: 2, py: 1.5, '&:nth-of-type(even)': { bgcolor: 'action.hover' } }}
          >
            <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, justifyContent: 'space-between' }}>
              <Typography variant="subtitle2" component="span" sx={{ overflowWrap: 'anywhere' }}>
                {selection ? <SelectOrder order={order} selection={selection} /> : null}
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
            <OrderShipBy order={order} />
            <Box sx={{ my: 1 }}>
              <LineItems
                order={order}
                productTypes={productTypes}
                shipped={sentBefore}
                blocked={blocked}
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

function OrderGrid({ orders, siteNames, productTypes, sent, onSent, onErrorData, selection }: OrderTableProps) {
  const showClient = siteNames !== undefined;
  return (
    <TableContainer sx={{ contain: 'inline-size' }}>
      {/* Narrow cell padding, as Jobs': the All orders columns and one row a line fit a laptop's content area. */}
      <Table size="small" aria-label="Orders" sx={{ '& .MuiTableCell-root': { px: 0.75 }, '& .MuiTableCell-root:first-of-type': { pl: 2 }, '& .MuiTableCell-root:last-of-type': { pr: 2 } }}>
        <TableHead>
          <TableRow>
            {selection ? (
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={selection.page.checked}
                  indeterminate={selection.page.indeterminate}
                  disabled={orders.length === 0}
                  onChange={selection.page.toggle}
                  slotProps={{ input: { 'aria-label': 'Select every order on this page' } }}
                  sx={{ p: 0.5 }}
                />
              </TableCell>
            ) : null}
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
            const { orderId, status, shipped, sentBefore, blocked } = sendStateOf(order, sent);
            return (
              <TableRow
                key={String(order.id)}
                data-testid={`order-${orderId}`}
                selected={selection?.isSelected(orderKey(order.siteId, orderId)) ?? false}
                sx={{ '&:nth-of-type(even)': { bgcolor: 'action.hover' }, '& > td': { verticalAlign: 'top' } }}
              >
                {selection ? (
                  <TableCell padding="checkbox">
                    <SelectOrder order={order} selection={selection} />
                  </TableCell>
                ) : null}
                {showClient ? <TableCell>{siteNames.get(String(order.siteId)) ?? `Site ${order.siteId}`}</TableCell> : null}
                {/* The day and the hour break onto two lines: the lines' column keeps each line on one row. */}
                <TableCell sx={{ minWidth: 84 }}>{formatDateTime(order.data?.created_at ?? order.createdAt)}</TableCell>
                <TableCell sx={{ minWidth: 120 }}>
                  <Typography variant="body2" data-testid="customer-name" sx={{ fontWeight: shipped ? 700 : 400 }}>
                    {customerNameOf(order)}
                  </Typography>
                  {status ? (
                    <Typography variant="caption" color="text.secondary" data-testid="order-status">
                      {status}
                    </Typography>
                  ) : null}
                  <OrderHoldChip order={order} />
                  <OrderShipBy order={order} />
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 100, maxWidth: 140 }}>
                  <OrderRef order={order} />
                </TableCell>
                <TableCell>
                  {/* One row a line; a very long SKU scrolls the table inside the card, never the page. */}
                  <LineItems
                    order={order}
                    productTypes={productTypes}
                    shipped={sentBefore}
                    blocked={blocked}
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
