import { fetchUtils, HttpError, type DataProvider } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';
import type { DataPage, Id, ListPage } from '../../../common/api/envelope';
import type { DataRecord } from '../../../common/api/records';
import type { UpsertUserInput, User } from '../../../common/api/sites';
import { api, apiFile, apiGetFile, ApiError, fieldErrorsOf, uploadedFileUrl } from './api';
import type {
  MakeInHouseResult,
  ManualSubmission,
  MarkShippedInput,
  OrderRecord,
  ProviderEventRecord,
  ProviderOrderDetail,
  RerunFlags,
  ReconcileCounts,
  RerunResult,
  ProviderCancellation,
  SendOutcome,
  StoreFulfilment,
  StoreConnectionCheck,
  StoreWebhookRegistration,
} from '../../../common/api/orders';
import type { OrderPipeline } from '../../../common/api/pipeline';
import type {
  AppConfig,
  Design,
  DesignInput,
  NewPrintJob,
  PrintJob,
  PrintJobChange,
  PrintJobSort,
  PrintPdfFrom,
  PrintReports,
  ProductionNote,
  ProductTypeOfSku,
} from '../../../common/api/printProduction';
import { newActionKey } from '../lib/actionKey';
import type { BulkAction, BulkResult } from '../../../common/api/bulk';
import type { ReprintWhy } from '../../../common/api/reprints';
import type { Batch, BatchJob, BatchMoved, BatchSheetsProgress, BatchState, ImpositionSheets } from '../../../common/api/batches';
import type { ScanResult } from '../../../common/api/scan';
import type { HistoryEntry, HistorySubjectKind, HistoryTrailEntry, OrderHistoryEntry } from '../../../common/api/history';
import { authHeaders } from './session';
import { syncCalls } from './sync';
import { storeCalls } from './stores';
import { STOCK_RESOURCE, stockCalls, stockResource } from './stock';

/**
 * Admin REST (ra-data-simple-rest protocol) with the token, and the server's `error` text as the
 * message. A refusal about fields (`details`) becomes react-admin's `body.errors`: each sentence
 * shows next to its input, and the first one (root.serverError) in the notification.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const headers = new Headers(options.headers ?? { Accept: 'application/json' });
  for (const [name, value] of Object.entries(authHeaders())) headers.set(name, value);
  try {
    return await fetchUtils.fetchJson(url, { ...options, headers });
  } catch (error) {
    if (error instanceof HttpError) {
      const body = error.body as { error?: unknown } | undefined;
      if (body && typeof body.error === 'string' && body.error) {
        const fields = fieldErrorsOf(body);
        const errors = Object.keys(fields).length ? { ...fields, root: { serverError: body.error } } : undefined;
        throw new HttpError(body.error, error.status, errors ? { ...body, errors } : error.body);
      }
    }
    throw error;
  }
}

const simpleRest = simpleRestProvider('/api/admin', httpClient);

/** A create (react-admin's useCreate, a Save of a new site or user) is one user action: one Idempotency-Key, meta.idempotencyKey when the caller has one. */
const restProvider: DataProvider = {
  ...simpleRest,
  create: (resource, params) =>
    httpClient(`/api/admin/${resource}`, {
      method: 'POST',
      body: JSON.stringify(params.data),
      headers: new Headers({ Accept: 'application/json', 'Idempotency-Key': (params.meta as { idempotencyKey?: string } | undefined)?.idempotencyKey ?? newActionKey() }),
    }).then(({ json }) => ({ data: json })),
};

// Stock items live in the product API (/api/stock-items), not the admin REST surface.
const withStock: DataProvider = {
  ...restProvider,
  getList: (resource, params) => (resource === STOCK_RESOURCE ? stockResource.getList(resource, params) : restProvider.getList(resource, params)),
  getOne: (resource, params) => (resource === STOCK_RESOURCE ? stockResource.getOne(resource, params) : restProvider.getOne(resource, params)),
  getMany: (resource, params) => (resource === STOCK_RESOURCE ? stockResource.getMany(resource, params) : restProvider.getMany(resource, params)),
  create: (resource, params) => (resource === STOCK_RESOURCE ? stockResource.create(resource, params) : restProvider.create(resource, params)),
  update: (resource, params) => (resource === STOCK_RESOURCE ? stockResource.update(resource, params) : restProvider.update(resource, params)),
};

const enc = encodeURIComponent;

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) q.set(key, String(value));
  return q.toString();
}

export interface PrintJobQuery {
  page: number;
  /** Jobs queue: false; print history: true. Both lists are of jobs ready for print. */
  isPrinted: boolean;
  /** A column of PRINT_JOB_SORTS; none: the list's own order. */
  sort?: PrintJobSort;
  order?: 'asc' | 'desc';
  /** One client's jobs (admins). */
  clientId?: Id;
  productType?: string;
  /** Rows a page (the server's default when not given; 100 at most). */
  pageSize?: number;
}

export type HeldPrintJobQuery = Pick<PrintJobQuery, 'page' | 'clientId' | 'productType'>;

export function printJobsPath({ page, isPrinted, sort, order, clientId, productType, pageSize }: PrintJobQuery): string {
  return `/api/print-jobs?${query({ page, pageSize, readyForPrint: 1, isPrinted: isPrinted ? 1 : 0, sort, order: sort ? order : undefined, clientId: clientId === '' ? undefined : clientId, productType: productType || undefined })}`;
}

export function heldPrintJobsPath({ page, clientId, productType }: HeldPrintJobQuery): string {
  return `/api/print-jobs?${query({ held: 1, page, clientId: clientId === '' ? undefined : clientId, productType: productType || undefined })}`;
}

/** What the Jobs screen lists when it opens (its view before any choice), both tabs. */
export const JOBS_OPENING_VIEW = { order: 'asc', clientId: '', productType: '' } as const;

/** The Jobs screen's first two calls: page 1 of the queue and of the Held tab (which counts it). */
export const jobsScreenFirstPaths = (): string[] => [printJobsPath({ page: 1, isPrinted: false, ...JOBS_OPENING_VIEW }), heldPrintJobsPath({ page: 1, ...JOBS_OPENING_VIEW })];

export interface OrderListQuery {
  page: number;
  /** The admin's all-clients view (/all-orders). */
  allClients?: boolean;
  /** Order name, number, customer name or email. */
  q?: string;
  status?: string;
  /** One client's orders (the admin's Client filter); all clients' without. */
  siteId?: string;
  pageSize?: number;
}

export const dataProvider = {
  ...withStock,
  ...stockCalls,

  // --- CRM ↔ email-platform sync (docs/sync.md): named calls of /re-n-adestra-sync ---
  ...syncCalls,
  ...storeCalls,

  /** POST /api/users/upsert: creates or updates a user of a site. */
  upsertUser(input: UpsertUserInput, idempotencyKey?: string): Promise<User> {
    return api<User>('/api/users/upsert', { method: 'POST', body: input, idempotencyKey });
  },

  /**
   * Presigned upload (spec §7): ask for a signed URL, PUT the file there, get back its public path.
   * Keys are `<folder>/<file name>`; the server adds the timestamp. `contentType` overrides the
   * browser's guess (empty for some files), and must match the file's content.
   */
  async uploadFile(file: File, folder: string, contentType = file.type || 'application/octet-stream'): Promise<string> {
    let fileUrl: string | null = null;
    const signedUrl = await api<string>('/api/users/me/get-upload-url', {
      method: 'POST',
      // The size is signed into the link (a bucket refuses a PUT of another size).
      body: { serverSidePath: `${folder}/${file.name}`, contentType, contentLength: file.size },
      // One choice of a file is one upload: a lost answer asked again gets the same signed URL.
      idempotencyKey: newActionKey(),
      onHeaders: (h) => (fileUrl = h.get('X-File-Url')),
    });
    const res = await fetch(signedUrl, { method: 'PUT', body: file, headers: { 'Content-Type': contentType } });
    return uploadedFileUrl(res, fileUrl);
  },

  /** GET /api/app-config: where the editor frames live. */
  getAppConfig(): Promise<AppConfig> {
    return api<AppConfig>('/api/app-config');
  },

  // --- Print jobs (docs/print-production.md) ---

  getPrintJobs(q: PrintJobQuery): Promise<ListPage<PrintJob>> {
    return api<ListPage<PrintJob>>(printJobsPath(q));
  },

  /** Every id the list's filter matches, in its order ("Select all N matching"), read page by page through the list call. */
  async getPrintJobIds(q: Omit<PrintJobQuery, 'page' | 'pageSize'>): Promise<Id[]> {
    const ids: Id[] = [];
    for (let page = 1; ; page++) {
      const answer = await dataProvider.getPrintJobs({ ...q, page, pageSize: 100 });
      ids.push(...answer.list.map((job) => job.id));
      if (!answer.hasNext || answer.list.length === 0) return ids;
    }
  },

  /** One action on many jobs, each through its own button's rules: what was done and what was refused, with the reason. */
  /** `why`: a reprint's reason and who is responsible (required for `reprint`). */
  bulkPrintJobs(ids: Id[], action: BulkAction, idempotencyKey?: string, why?: ReprintWhy): Promise<BulkResult> {
    return api<BulkResult>('/api/print-jobs/bulk', { method: 'POST', body: { ids, action, ...why }, idempotencyKey });
  },

  /** A scan at the packing bench: the item moves on (printed, then packed) and its order is answered; a refusal is an ApiError whose body's details carry the job and order. */
  scan(code: string, idempotencyKey?: string): Promise<ScanResult> {
    return api<ScanResult>('/api/scan', { method: 'POST', body: { code }, idempotencyKey });
  },

  /** The jobs' print files as one PDF, in the order given; from Jobs each job is then downloaded (and asks "Have you printed?"). */
  downloadPrintFiles(ids: Id[], from: PrintPdfFrom): Promise<Blob> {
    return apiFile('/api/print-jobs/bulk-pdf', { ids, from });
  },

  /** The jobs preflight holds (an error, not approved): the Jobs screen's Held tab. */
  getHeldPrintJobs(q: HeldPrintJobQuery): Promise<ListPage<PrintJob>> {
    return api<ListPage<PrintJob>>(heldPrintJobsPath(q));
  },

  /** Approve anyway: a held job prints as it is, recorded as approved by the signed-in user. */
  approvePrintJob(id: Id, idempotencyKey?: string): Promise<PrintJob> {
    return api<PrintJob>(`/api/print-jobs/${enc(String(id))}/approve`, { method: 'POST', idempotencyKey });
  },

  /** Preflight again (after the design was fixed): the job with its new findings, held or not. */
  recheckPrintJob(id: Id, idempotencyKey?: string): Promise<PrintJob> {
    return api<PrintJob>(`/api/print-jobs/${enc(String(id))}/recheck`, { method: 'POST', idempotencyKey });
  },

  /** A flag change of one job (mark printed, not printed, reprint); the server applies the state rules. */
  changePrintJob(id: Id, change: PrintJobChange): Promise<PrintJob> {
    return api<PrintJob>('/api/print-jobs', { method: 'POST', body: { id, ...change } });
  },

  createPrintJob(input: NewPrintJob, idempotencyKey?: string): Promise<PrintJob> {
    return api<PrintJob>('/api/print-jobs', { method: 'POST', body: input, idempotencyKey });
  },

  deletePrintJob(id: Id): Promise<PrintJob> {
    return api<PrintJob>(`/api/print-jobs/${enc(String(id))}`, { method: 'DELETE' });
  },

  /** The job's print PDF; serving it marks the job downloaded. `answers`: the operator's yes to the server's question ({printInHouse}). */
  /** `from: 'jobs'`: the queue's download, refused (409 "Already printed by…") once someone printed it. */
  downloadPrintPdf(id: Id, from: PrintPdfFrom, answers: Record<string, boolean> = {}): Promise<Blob> {
    return apiFile('/api/pdf/from-print-job', { id, from, ...answers });
  },

  getPrintReports({ from, to }: { from: string; to: string }): Promise<PrintReports> {
    return api<PrintReports>(`/api/print-jobs/reports?${query({ from, to })}`);
  },

  /** General-data record of type production-note, field1 = the job id as text. */
  async saveProductionNote({ id, jobId, note, idempotencyKey }: { id?: Id; jobId: Id; note: string; idempotencyKey?: string }): Promise<ProductionNote> {
    const body: Record<string, unknown> = { field1: String(jobId), data: { note } };
    if (id !== undefined) body.id = id;
    const saved = await api<DataRecord<{ note?: string }>>('/api/general-data/production-note', { method: 'POST', body, idempotencyKey });
    return { id: saved.id, note: saved.data?.note ?? note };
  },

  // --- Batches: jobs printed together on press sheets ---

  /** Newest first, one state's (the Batches tabs); an admin may name a client. */
  getBatches({ page, state, clientId }: { page: number; state: BatchState; clientId?: Id | '' }): Promise<ListPage<Batch>> {
    return api<ListPage<Batch>>(`/api/batches?${query({ page, state, clientId: clientId === '' ? undefined : clientId })}`);
  },

  getBatch(id: Id): Promise<Batch> {
    return api<Batch>(`/api/batches/${enc(String(id))}`);
  },

  /** Its jobs in imposed order, each as it is now (null: deleted) with its place in its order. */
  getBatchJobs(id: Id): Promise<BatchJob[]> {
    return api<BatchJob[]>(`/api/batches/${enc(String(id))}/jobs`);
  },

  /** The press sheets the signed-in user's site imposes on (Create batch's choice). */
  getImpositionSheets(): Promise<ImpositionSheets> {
    return api<ImpositionSheets>('/api/batches/sheets');
  },

  /** A new open batch of these jobs; no sheet: the one that holds the most. Refusals name the jobs. */
  createBatch(input: { jobIds: Id[]; sheet?: string }, idempotencyKey?: string): Promise<Batch> {
    return api<Batch>('/api/batches', { method: 'POST', body: input, idempotencyKey });
  },

  /** One step on (printed, cut, packed); printed marks every job printed and reports each refusal. */
  moveBatch(id: Id, state: BatchState, idempotencyKey?: string): Promise<BatchMoved> {
    return api<BatchMoved>(`/api/batches/${enc(String(id))}/state`, { method: 'POST', body: { state }, idempotencyKey });
  },

  /** The imposed sheets (batch-<number>.pdf): a cover, then each sheet's front and back; `progressKey` names the work for batchSheetsProgress. */
  downloadBatchSheets(id: Id, progressKey?: string): Promise<Blob> {
    return apiGetFile(`/api/batches/${enc(String(id))}/pdf${progressKey ? `?${query({ progress: progressKey })}` : ''}`);
  },

  /** How far the sheets asked for with `progressKey` are; null when the server does not know (yet). */
  batchSheetsProgress(id: Id, progressKey: string): Promise<BatchSheetsProgress | null> {
    return api<BatchSheetsProgress | null>(`/api/batches/${enc(String(id))}/pdf/progress?${query({ key: progressKey })}`);
  },

  // --- Designs ---

  getDesigns({ page }: { page: number }): Promise<ListPage<Design>> {
    return api<ListPage<Design>>(`/api/designs?${query({ page })}`);
  },

  getDesign(id: Id): Promise<Design> {
    return api<Design>(`/api/designs/${enc(String(id))}`);
  },

  saveDesign(input: DesignInput, idempotencyKey?: string): Promise<Design> {
    return api<Design>('/api/designs', { method: 'POST', body: input, idempotencyKey });
  },

  deleteDesign(id: Id): Promise<Design> {
    return api<Design>(`/api/designs/${enc(String(id))}`, { method: 'DELETE' });
  },

  // --- Orders and fulfilment (docs/orders-fulfilment.md) ---

  /** The order log (spec §7: general data of type shopify-order-log); all sites with allClients (admin). */
  getOrders({ page, allClients, q, status, siteId, pageSize }: OrderListQuery): Promise<DataPage<OrderRecord>> {
    const params = {
      name: 'order-log',
      userId: 1,
      page,
      pageSize,
      // An admin's picked client is one site's list; otherwise the spec's all-clients call.
      ...(allClients && siteId ? { siteId } : allClients ? { allClients: 1, field2: '' } : {}),
      q: q || undefined,
      status: status || undefined,
    };
    return api<DataPage<OrderRecord>>(`/api/general-data/shopify-order-log?${query(params)}`);
  },

  /** Every order the list's filter matches, read page by page through the same call: "Select all N matching". */
  async getOrderRecords(q: Omit<OrderListQuery, 'page' | 'pageSize'>): Promise<OrderRecord[]> {
    const rows: OrderRecord[] = [];
    for (let page = 1; ; page++) {
      const answer = await dataProvider.getOrders({ ...q, page, pageSize: 100 });
      rows.push(...answer.data);
      if (!answer.hasNext || answer.data.length === 0) return rows;
    }
  },

  /** The demo store's site (outside production; null: no demo store for this user). */
  demoStore(): Promise<{ siteId: Id | null }> {
    return api<{ siteId: Id | null }>('/api/test/demo-store');
  },

  /** The demo store cancels its order and sends Presswork orders/cancelled, as a real store would. */
  cancelInDemoStore(id: Id): Promise<{ sent: true }> {
    return api<{ sent: true }>('/api/test/demo-store/cancel', { method: 'POST', body: { id: String(id) } });
  },

  /** Make in house: each order's print jobs made in the Jobs queue; per order what was made, already there, or refused and why. */
  makeOrdersInHouse(ids: string[], siteId?: Id): Promise<MakeInHouseResult> {
    return api<MakeInHouseResult>('/api/online-stores/shopify-webhook/order-to-arwork', { method: 'POST', body: { ids, ...(siteId === undefined ? {} : { siteId }) } });
  },

  /** SKU → product type of the known designs (spec §3, product type record). */
  async getProductTypes(): Promise<ProductTypeOfSku[]> {
    const answer = await api<{ data?: ProductTypeOfSku[] }>('/api/designs/all-with-product-type');
    return answer?.data ?? [];
  },

  /** The print PDF of one line item (print-file.pdf); a refusal carries its text in data.error. */
  async downloadOrderLinePdf(id: Id, lineId: Id, answers: Record<string, boolean> = {}): Promise<Blob> {
    try {
      return await apiFile('/api/online-stores/shopify-webhook/hood-download-pdf', { id: String(id), lineId: String(lineId), ...answers });
    } catch (error) {
      const dataError = error instanceof ApiError ? (error.body as { data?: { error?: unknown } } | undefined)?.data?.error : undefined;
      if (typeof dataError === 'string' && dataError && error instanceof ApiError) throw new ApiError(dataError, error.status, error.body);
      throw error;
    }
  },

  /** Sends a whole order to the provider; failures throw ApiError whose body carries errorMes. */
  sendOrderToProvider(id: Id, answers: Record<string, boolean> = {}, idempotencyKey?: string): Promise<SendOutcome> {
    return api<SendOutcome>('/api/online-stores/shopify-webhook/send-hp', { method: 'POST', body: { id: String(id), ...answers }, idempotencyKey });
  },

  /** Sends one line of an order to the provider (send-hp-single-line); same answers as sendOrderToProvider. */
  sendOrderLineToProvider(orderId: Id, lineId: Id, answers: Record<string, boolean> = {}, idempotencyKey?: string): Promise<SendOutcome> {
    return api<SendOutcome>('/api/online-stores/shopify-webhook/send-hp-single-line', {
      method: 'POST',
      body: { orderId: String(orderId), lineId: String(lineId), ...answers },
      idempotencyKey,
    });
  },

  /** Cancels the order at HP Site Flow (cancel-hp); HP refusing everything throws ApiError with HP's reason. */
  cancelOrderAtProvider(id: Id, idempotencyKey?: string): Promise<ProviderCancellation> {
    return api<ProviderCancellation>('/api/online-stores/shopify-webhook/cancel-hp', { method: 'POST', body: { id: String(id) }, idempotencyKey });
  },

  /** Release now: every waiting line of the order (change window, proof) is made at once. */
  releaseOrder(orderId: Id, siteId?: Id, idempotencyKey?: string): Promise<{ released: string[] }> {
    return api<{ released: string[] }>(`/api/orders/${enc(String(orderId))}/release${siteId === undefined ? '' : `?${query({ siteId })}`}`, { method: 'POST', body: {}, idempotencyKey });
  },

  /** Extend hold: the order's change window ends `minutes` later. */
  extendHold(orderId: Id, minutes: number, siteId?: Id, idempotencyKey?: string): Promise<{ holdUntil: string; lines: string[] }> {
    return api<{ holdUntil: string; lines: string[] }>(`/api/orders/${enc(String(orderId))}/extend-hold${siteId === undefined ? '' : `?${query({ siteId })}`}`, { method: 'POST', body: { minutes }, idempotencyKey });
  },

  /** A line's personalisation replaced (a line awaiting its proof gets a new one); wrong fields throw with field errors. */
  editPersonalisation(orderId: Id, lineId: Id, properties: Array<{ name: string; value: string }>, siteId?: Id, idempotencyKey?: string): Promise<{ proof: 'sent' | 'failed' | 'none'; properties: Array<{ name: string; value: string }> }> {
    return api(`/api/orders/${enc(String(orderId))}/lines/${enc(String(lineId))}/personalisation${siteId === undefined ? '' : `?${query({ siteId })}`}`, { method: 'POST', body: { properties }, idempotencyKey });
  },

  /** What went back to the store for an order (its shipments' tracking), oldest first. */
  getStoreFulfilments(orderId: Id, siteId?: Id): Promise<StoreFulfilment[]> {
    return api<StoreFulfilment[]>(`/api/orders/${enc(String(orderId))}/store-fulfilments${siteId === undefined ? '' : `?${query({ siteId })}`}`);
  },

  /** The charity pipeline's steps of an order (CRM, Adestra, each e-card line) and where each one is. */
  orderPipeline(orderId: Id, siteId?: Id): Promise<OrderPipeline> {
    return api<OrderPipeline>(`/api/orders/${enc(String(orderId))}/pipeline${siteId === undefined ? '' : `?${query({ siteId })}`}`);
  },

  /** Mark shipped (lines printed in house): the store gets the fulfilment with this tracking; wrong fields throw with field errors. */
  markShipped(input: MarkShippedInput, idempotencyKey?: string): Promise<StoreFulfilment> {
    return api<StoreFulfilment>('/api/orders/mark-shipped', { method: 'POST', body: input, idempotencyKey });
  },

  /** A print job's history (who did what, when, from → to, why), oldest first. */
  async jobHistory(id: Id): Promise<HistoryEntry[]> {
    return (await api<{ list: HistoryEntry[] }>(`/api/print-jobs/${enc(String(id))}/history`)).list;
  },

  /** A store order's history with its jobs' and sends' entries, oldest first. */
  async orderHistory(orderId: Id, siteId?: Id): Promise<OrderHistoryEntry[]> {
    return (await api<{ list: OrderHistoryEntry[] }>(`/api/online-stores/order-history?${query({ id: String(orderId), siteId: siteId === undefined ? undefined : String(siteId) })}`)).list;
  },

  /** The whole trail (admins), newest first, a page at a time; days are YYYY-MM-DD. */
  getHistory(q: { page: number; kind?: HistorySubjectKind | ''; siteId?: string; actor?: string; from?: string; to?: string }): Promise<ListPage<HistoryTrailEntry>> {
    return api<ListPage<HistoryTrailEntry>>(`/api/history?${query({ page: q.page, pageSize: 50, kind: q.kind || undefined, siteId: q.siteId || undefined, actor: q.actor?.trim() || undefined, from: q.from || undefined, to: q.to || undefined })}`);
  },

  /** The order's logs (order, provider events, sends), newest first. */
  checkOrder({ id, name }: { id?: string; name?: string }): Promise<OrderRecord[]> {
    return api<OrderRecord[]>('/api/online-stores/check-order', { method: 'POST', body: { id: id || undefined, name: name || undefined } });
  },

  /** answers: the operator's yes to the server's question (sendShipped). */
  rerunOrder(id: Id, flags: RerunFlags, answers: Record<string, boolean> = {}, idempotencyKey?: string): Promise<RerunResult> {
    return api<RerunResult>('/api/online-stores/rerun-order', { method: 'POST', body: { id: String(id), flags, ...answers }, idempotencyKey });
  },

  /** Sync from store: the store's missed orders pulled now (admin); answers what it found. */
  reconcileStore(site: string, idempotencyKey?: string): Promise<ReconcileCounts> {
    return api<ReconcileCounts>('/api/online-stores/reconcile', { method: 'POST', body: { site }, idempotencyKey });
  },

  /** Provider events (hp-log records), newest first. */
  getProviderEvents({ page }: { page: number }): Promise<ListPage<ProviderEventRecord>> {
    return api<ListPage<ProviderEventRecord>>(`/api/hp-data?${query({ page })}`);
  },

  getProviderOrderDetail(orderId: Id): Promise<ProviderOrderDetail> {
    return api<ProviderOrderDetail>(`/api/hp-data/order/${enc(String(orderId))}`);
  },

  /** The manual form; answers the provider's answer. A refusal (422) throws with it in the error body's data. */
  sendToProviderManually(submission: ManualSubmission, idempotencyKey?: string): Promise<unknown> {
    return api<unknown>('/api/online-stores/manually-send-hp', { method: 'POST', body: submission, idempotencyKey });
  },

  /** Check connection: the store's name through its Admin API (the saved token and version). */
  checkStoreConnection(site: string): Promise<StoreConnectionCheck> {
    return api<StoreConnectionCheck>('/api/online-stores/check-connection', { method: 'POST', body: { site } });
  },

  /** Register webhooks: creates or repairs Presswork's subscriptions; answers every one the store holds. */
  registerStoreWebhooks(site: string): Promise<StoreWebhookRegistration> {
    return api<StoreWebhookRegistration>('/api/online-stores/register-webhooks', { method: 'POST', body: { site } });
  },
} satisfies DataProvider;

export type AppDataProvider = typeof dataProvider;
