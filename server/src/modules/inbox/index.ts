// Owns the inbox: every inbound webhook delivery, stored once and handled by its source's handler.
export { inboxRepo } from './repo';
export { createInbox, type Delivery, type Handled, type Inbox } from './service';
