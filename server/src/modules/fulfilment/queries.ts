// What other modules may read or change through this module's repos, by name; the repos stay inside.
import { outboxRepo } from './outbox';
import { providerChecksRepo } from './providerChecksRepo';
import { storeFulfilmentRepo } from './storeFulfilmentRepo';

type OutboxRepo = ReturnType<typeof outboxRepo>;
export const failedOutboxRows = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['failedOf']>): ReturnType<OutboxRepo['failedOf']> => outboxRepo(db).failedOf(...args);
export const outboxRowsWithKeyPrefix = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['withKeyPrefix']>): ReturnType<OutboxRepo['withKeyPrefix']> => outboxRepo(db).withKeyPrefix(...args);
export const retryFailedOutboxRow = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['retryFailedOf']>): ReturnType<OutboxRepo['retryFailedOf']> => outboxRepo(db).retryFailedOf(...args);
export const outboxRowById = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['byId']>): ReturnType<OutboxRepo['byId']> => outboxRepo(db).byId(...args);
export const claimOutboxRow = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['claim']>): ReturnType<OutboxRepo['claim']> => outboxRepo(db).claim(...args);
export const dueOutboxIds = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['dueIds']>): ReturnType<OutboxRepo['dueIds']> => outboxRepo(db).dueIds(...args);
export const markOutboxFailed = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['markFailed']>): ReturnType<OutboxRepo['markFailed']> => outboxRepo(db).markFailed(...args);
export const markOutboxSent = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['markSent']>): ReturnType<OutboxRepo['markSent']> => outboxRepo(db).markSent(...args);
export const rescheduleOutboxRow = (db: Parameters<typeof outboxRepo>[0], ...args: Parameters<OutboxRepo['reschedule']>): ReturnType<OutboxRepo['reschedule']> => outboxRepo(db).reschedule(...args);

type ProviderChecksRepo = ReturnType<typeof providerChecksRepo>;
export const providerPrintedBefore = (db: Parameters<typeof providerChecksRepo>[0], ...args: Parameters<ProviderChecksRepo['printedBefore']>): ReturnType<ProviderChecksRepo['printedBefore']> => providerChecksRepo(db).printedBefore(...args);
export const providerFirstSentFrom = (db: Parameters<typeof providerChecksRepo>[0], ...args: Parameters<ProviderChecksRepo['firstSentFrom']>): ReturnType<ProviderChecksRepo['firstSentFrom']> => providerChecksRepo(db).firstSentFrom(...args);
export const providerFirstPrintedFrom = (db: Parameters<typeof providerChecksRepo>[0], ...args: Parameters<ProviderChecksRepo['firstPrintedFrom']>): ReturnType<ProviderChecksRepo['firstPrintedFrom']> => providerChecksRepo(db).firstPrintedFrom(...args);
export const providerSentBefore = (db: Parameters<typeof providerChecksRepo>[0], ...args: Parameters<ProviderChecksRepo['sentBefore']>): ReturnType<ProviderChecksRepo['sentBefore']> => providerChecksRepo(db).sentBefore(...args);

type StoreFulfilmentRepo = ReturnType<typeof storeFulfilmentRepo>;
export const shippedLinesIn = (db: Parameters<typeof storeFulfilmentRepo>[0], ...args: Parameters<StoreFulfilmentRepo['shippedLinesIn']>): ReturnType<StoreFulfilmentRepo['shippedLinesIn']> => storeFulfilmentRepo(db).shippedLinesIn(...args);
