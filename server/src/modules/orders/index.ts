// Owns store orders: webhooks in, order tables, status moves, store connections and privacy requests.
export { ordersAdminRoutes } from './adminResources';
export { orderFor } from './lookup';
export { highestProgress, moveOrder, nextOrderStatus, ORDER_EVENTS, PROGRESS, progressRank, SIDE, TERMINAL, writeOrder } from './orderState';
export { SHOPIFY_SOURCE } from './repo';
export { onlineStoresRoutes, shopifyWebhookRoutes, storeConnectionRoutes } from './routes';
export { searchKey } from './searchKeys';
export { ordersService, type OrdersService } from './service';
export { type Cancellation, isPaid, type OrderAddress, type OrderData, type OrderLine } from './shopify';
export { storeAdminFor } from './storeConnection';
export { type Store, storesService } from './stores';
export { storeTokens } from './storeTokens';
export { DuplicateOrderError, type OrderRecord } from './tablesRepo';
export { type SendWhen, sendWhenOf } from './webhookSites';
export { ordersPlacedSince, orderNames, orderRecordOf, newestOrder, orderById, insertProviderEvent, insertProviderSend, orderStates, deleteOrderTableRecord, insertOrderTableRecord, orderTableRecordById, orderTableRecordSource, updateOrderTableRecord } from './queries';
export { STORE_KEYS } from './webhookSites';
