// Setup → Stock: the stock items of the product API (/api/stock-items) as a react-admin resource,
// and its actions (Receive, Count, the movements and their CSV). The records are in common/api.
import type { DataProvider } from 'react-admin';
import type { ListPage } from '../../../common/api/envelope';
import type { LowStockItem, StockItem, StockMovement } from '../../../common/api/stock';
import { newActionKey } from '../lib/actionKey';
import { api, apiGetFile } from './api';

export const STOCK_RESOURCE = 'stock-items';

const SORTS = new Set(['id', 'name', 'onHand', 'available', 'reorderPoint']);

/** getList/getOne/getMany/create/update of stock-items over the product API. */
export const stockResource: Pick<DataProvider, 'getList' | 'getOne' | 'getMany' | 'create' | 'update'> = {
  async getList(_resource, params) {
    const { page = 1, perPage = 25 } = params.pagination ?? {};
    const q = new URLSearchParams({ page: String(page), pageSize: String(perPage) });
    if (params.sort?.field && SORTS.has(params.sort.field)) q.set('sort', params.sort.field);
    if (params.sort?.order) q.set('order', params.sort.order.toLowerCase());
    const filter = (params.filter ?? {}) as { q?: string };
    if (filter.q) q.set('q', filter.q);
    const answer = await api<ListPage<StockItem>>(`/api/stock-items?${q}`);
    return { data: answer.list as never[], total: answer.total };
  },
  async getOne(_resource, params) {
    return { data: (await api<StockItem>(`/api/stock-items/${encodeURIComponent(String(params.id))}`)) as never };
  },
  async getMany(_resource, params) {
    const data = await Promise.all(params.ids.map((id) => api<StockItem>(`/api/stock-items/${encodeURIComponent(String(id))}`)));
    return { data: data as never[] };
  },
  async create(_resource, params) {
    const key = (params.meta as { idempotencyKey?: string } | undefined)?.idempotencyKey ?? newActionKey();
    return { data: (await api<StockItem>('/api/stock-items', { method: 'POST', body: params.data, idempotencyKey: key })) as never };
  },
  async update(_resource, params) {
    const { name, unit, reorderPoint, reorderQuantity, supplierNote } = params.data as Partial<StockItem>;
    const body = { id: params.id, name, unit, reorderPoint, reorderQuantity, supplierNote };
    return { data: (await api<StockItem>('/api/stock-items', { method: 'POST', body, idempotencyKey: newActionKey() })) as never };
  },
};

export const stockCalls = {
  /** Receive: a delivery of `quantity`, with its note. */
  receiveStock(id: StockItem['id'], input: { quantity: number; note?: string }, idempotencyKey: string): Promise<StockItem> {
    return api<StockItem>(`/api/stock-items/${id}/receive`, { method: 'POST', body: input, idempotencyKey });
  },
  /** Count: a stock-take found `quantity`. */
  countStock(id: StockItem['id'], input: { quantity: number; note?: string }, idempotencyKey: string): Promise<StockItem> {
    return api<StockItem>(`/api/stock-items/${id}/count`, { method: 'POST', body: input, idempotencyKey });
  },
  getStockMovements(id: StockItem['id'], page = 1): Promise<ListPage<StockMovement>> {
    return api<ListPage<StockMovement>>(`/api/stock-items/${id}/movements?page=${page}&pageSize=50`);
  },
  /** Items at or under their reorder point with the days each lasts (Home); the same forecast as Needs attention. */
  getLowStock(limit = 20): Promise<{ list: LowStockItem[] }> {
    return api<{ list: LowStockItem[] }>(`/api/stock-items/low?limit=${limit}`);
  },
  stockMovementsCsv(id: StockItem['id']): Promise<Blob> {
    return apiGetFile(`/api/stock-items/${id}/movements?format=csv`);
  },
};
