// The API's answers as the admin reads them live in common/api. These compile-time checks hold the
// server's own record types and service answers to them, so a field changed on one side only
// fails `npm run typecheck` instead of reaching the screens. Types only: nothing here runs.
import type { DataPage, ListPage } from '../../../common/api/envelope';
import type { OrderData, PreGeneratedHPItem, ProviderOrderLine, RerunResult, SendOutcome, Store } from '../../../common/api/orders';
import type { Design, PrintJob, PrintReports, ProductTypeOfSku } from '../../../common/api/printProduction';
import type { PrintProfile } from '../../../common/api/printProfiles';
import type { DataRecord } from '../../../common/api/records';
import type { LoginAnswer, Site, SiteInfo, User } from '../../../common/api/sites';
import type { ConsentOptions, JobConfig, ReConnectionStatus, ReConnectUrl, ReWebhookSubscriptions, SyncResult } from '../../../common/api/sync';
import type { DesignsService } from '../modules/designs';
import type { Design as DesignRow } from '../modules/designs';
import type { FulfilmentService, SendOutcome as ServerSendOutcome } from '../modules/fulfilment';
import type { PreGeneratedItem } from '../modules/fulfilment';
import type { DataRecord as GeneralRecord } from '../modules/general-data';
import type { GeneralDataService } from '../modules/general-data';
import type { OrderData as StoredOrderData } from '../modules/orders';
import type { OrdersService } from '../modules/orders';
import type { OrderActions } from '../workflows/orderActions';
import type { Store as StoreRow } from '../modules/orders';
import type { PrintProfilesService } from '../modules/pdf';
import type { PrintJob as PrintJobRow } from '../modules/print-jobs';
import type { PrintJobsService } from '../modules/print-jobs';
import type { MaskedSite, SiteInfo as ServerSiteInfo, SitesService } from '../modules/sites';
import type { JobConfig as ServerJobConfig } from '../modules/sync';
import type { SyncResult as ServerSyncResult } from '../modules/sync';
import type { SyncService } from '../modules/sync';
import type { PublicUser, UsersService } from '../modules/users';

/** The server's value is a valid `Shared` (an error names the field that differs). */
type Conforms<Server extends Shared, Shared> = Server;
/** …and it sends no field `Shared` lacks: a new answer field goes into common/api too. */
type Same<Server extends Shared, Shared extends Record<keyof Server, unknown>> = Server;
type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

// Records: the same fields on both sides.
export type PrintJobContract = Same<PrintJobRow, PrintJob>;
export type DesignContract = Same<DesignRow, Design>;
export type DataRecordContract = Same<GeneralRecord, DataRecord>;
export type SiteContract = Same<MaskedSite, Site>;
export type SiteInfoContract = Same<ServerSiteInfo, SiteInfo>;
export type UserContract = Same<PublicUser, User>;
export type StoreContract = Same<StoreRow, Store>;
export type JobConfigContract = Same<ServerJobConfig, JobConfig>;
export type SyncResultContract = Same<ServerSyncResult, SyncResult>;
// The printers' colour profiles (Print profiles, the site form's Print files).
export type PrintProfileContract = Same<Answer<PrintProfilesService['upload']>, PrintProfile>;
export type PrintProfileListContract = Same<Answer<PrintProfilesService['list']>[number], PrintProfile>;
// The Raiser's Edge connection's answers (sync screen, site edit screen).
export type ReConnectionContract = Same<Answer<SyncService['connectionStatus']>, ReConnectionStatus>;
export type ReConnectUrlContract = Same<Answer<SyncService['startConnect']>, ReConnectUrl>;
export type ConsentOptionsContract = Same<Answer<SyncService['consentOptions']>, ConsentOptions>;
export type ReWebhookSubscriptionsContract = Conforms<Answer<SyncService['createWebhookSubscriptions']>, ReWebhookSubscriptions>;
// Order data also holds records imported from the old system: the shared type is the looser reading.
export type OrderDataContract = Conforms<Omit<StoredOrderData, 'preGeneratedHPItems'>, Omit<OrderData, 'preGeneratedHPItems'>>;
// Stored as unknown[] on the order; fulfilment writes these.
export type PreGeneratedItemContract = Conforms<PreGeneratedItem, PreGeneratedHPItem>;

// Answers of the calls the admin makes.
export type PrintJobListContract = Conforms<Answer<PrintJobsService['list']>, ListPage<PrintJob>>;
export type PrintReportsContract = Same<Answer<PrintJobsService['reports']>, PrintReports>;
export type DesignListContract = Conforms<Answer<DesignsService['list']>, ListPage<Design>>;
export type ProductTypesContract = Conforms<Answer<DesignsService['allWithProductType']>, { data: ProductTypeOfSku[] }>;
export type GeneralDataListContract = Conforms<Answer<GeneralDataService['list']>, DataPage<DataRecord>>;
export type CheckOrderContract = Conforms<Answer<OrdersService['checkOrder']>, DataRecord[]>;
export type RerunContract = Same<Answer<OrderActions['rerunOrder']>, RerunResult>;
export type ProviderEventsContract = Conforms<Answer<FulfilmentService['listEvents']>, ListPage<DataRecord>>;
export type ProviderLinesContract = Conforms<Answer<FulfilmentService['orderDetail']>['lines'][number], ProviderOrderLine>;
export type LoginContract = Conforms<Extract<Answer<UsersService['login']>, { token: string }>, LoginAnswer>;
export type SitesListContract = Conforms<Answer<SitesService['list']>['rows'][number], Site>;
// The send routes answer these fields of the outcome (fulfilment/routes.ts answerSend).
export type SentContract = Conforms<
  Pick<Extract<ServerSendOutcome, { status: 'sent' | 'already-sent' }>, 'status' | 'hpOrderId' | 'sentAt'> & { orderStatus: string | null },
  Extract<SendOutcome, { status: 'sent' | 'already-sent' }>
>;
