// Owns store orders: webhooks in, order tables, status moves, store connections and privacy requests.
export { orderFor } from './lookup';
export { assertOperatorMaySend, cancelledJobReason, type HeldOrder, ORDER_CANCELLED, ORDER_UNPAID, printHold, type PrintHold } from './orderHold';
export { highestProgress, moveOrder, refuseHandMove, nextOrderStatus, ORDER_EVENTS, PROGRESS, progressRank, SIDE, TERMINAL, writeOrder } from './orderState';
export { SHOPIFY_SOURCE } from './repo';
export { onlineStoresRoutes, shopifyWebhookRoutes, storeConnectionRoutes } from './routes';
export { searchKey } from './searchKeys';
export { type OrderCancelPort, type OrderPipelinePort, type OrderProductionPort, type OrderStoreHoldPort, type OrderRoutePort, type OrderSendPort, ordersService, type OrdersService } from './service';
export { type Cancellation, isPaid, type OrderAddress, type OrderData, type OrderLine } from './shopify';
export { storeAdminFor } from './storeConnection';
export { type Store, type StoreSortField, storesService, type StoresService } from './stores';
export { lineFileBody, orderIdsBody, orderLineBody, type OrderLineInput, orderRefBody, productBody, rerunOrderBody, type RerunOrderInput, storeBody } from './schema';
export { storeTokens } from './storeTokens';
export { DuplicateOrderError, type OrderRecord } from './tablesRepo';
export { autoSendOf, type SendWhen, sendWhenOf } from './webhookSites';
export { latestOrdersOfSite, ordersPlacedSince, orderNames, orderRecordOf, newestOrder, orderById, insertProviderEvent, insertProviderSend, orderStates, deleteOrderTableRecord, insertOrderTableRecord, orderTableRecordById, orderTableRecordSource, updateOrderTableRecord } from './queries';
export { STORE_KEYS } from './webhookSites';
