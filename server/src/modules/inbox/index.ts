// Owns the inbox: every inbound webhook delivery, stored once and handled by its source's handler.
export { createInbox, type Delivery, type Handled, type Inbox } from './service';
export { failingDeliveriesBySource, rewriteDeliveryPayloads, anyDeliveryOf, deliveriesReceivedBetween } from './queries';
