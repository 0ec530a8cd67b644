// What the fulfilment module (the print provider, HP Site Flow) offers to the rest of the server.
// The service object is what the app holds; the use cases are there for callers and tests that
// want one story without HTTP.
export { fulfilmentService, type FulfilmentService } from './service';
export { DEFAULT_OPTIONS, type FulfilmentContext, type FulfilmentOptions, type SendOutcome } from './context';
export { enqueueOrderSend, handBackClaims, hpDedupeKey, stopClaiming, type EnqueueOrderSend, type OutboxRow } from './outbox';
export { processDue, sendNow, startOutboxWorker, startRepeating } from './outboxWorker';
export { sendOrder, type SendOrderInput } from './sendOrder';
export { MAYBE_AT_PROVIDER_WHOLE, mayBeAtProvider } from './lineSends';
export { prepareSend, type PreparedSend } from './prepareSend';
export { manualSend } from './manualSend';
export { cancelNow, providerCancellations, type ProviderCancellations } from './cancel';
export { checkQuietOrders } from './checkQuietOrders';
export { applyPostback, HP_SOURCE, postbackSite, receivePostback } from './postbacks';
export { adminLog, adminLogs, listEvents, orderDetail } from './providerEvents';
export { findOrder, resolveOrder } from './resolveOrder';
export { hpDataRoutes, hpLogsAdminRoutes, hpTestRoutes, onlineStoresFulfilmentRoutes } from './routes';
export { requeueAfterApproval } from './afterApproval';
export { later, nowIso, text } from './context';
export { type PreGeneratedItem, type StoreLineItem, type StoreOrder } from './orderBody';
export { HP_ORDER_KIND, type HpOrderPayload, insertOnce, outboxFromRow } from './outbox';
export { lockedOrder } from './resolveOrder';
export { storeFulfilmentRoutes } from './routes';
export { detailQuery } from './schema';
export { storeFulfilments } from './storeFulfilment';
export { STORE_FULFILMENT_KIND } from './storeFulfilmentRepo';
export { failedOutboxRows, outboxRowsWithKeyPrefix, retryFailedOutboxRow, outboxRowById, claimOutboxRow, dueOutboxIds, markOutboxFailed, markOutboxSent, rescheduleOutboxRow, providerPrintedBefore, providerSentBefore, shippedLinesIn } from './queries';
