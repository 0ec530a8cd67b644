// The header search (GET /api/search?q=): what it answers, grouped by kind, and the query's limits.
import type { RecordId } from './envelope';

/** Shorter queries answer empty groups (too many matches to be useful while typing), but a job's number. */
export const SEARCH_MIN_CHARS = 2;

/** Whether a (trimmed) query is asked at all: two characters or more, or digits (a job's number, `7`). */
export const isSearchable = (q: string) => q.length >= SEARCH_MIN_CHARS || /^\d+$/.test(q);
/** Longer queries are refused with a 400. */
export const SEARCH_MAX_CHARS = 100;
/** The most results of one kind. */
export const SEARCH_GROUP_SIZE = 8;

/** One result: what the dropdown shows (label, sub) and where Enter goes (link, an admin route). */
export interface SearchHit {
  id: RecordId;
  label: string;
  sub: string;
  link: string;
}

export interface OrderHit extends SearchHit {
  /** The store's order id (Check order's id). */
  orderId: string;
  name: string | null;
  siteId: RecordId;
  status: string;
  createdAt: string;
}

export interface JobHit extends SearchHit {
  productName: string;
  orderId: string | null;
  siteId: RecordId;
  isPrinted: boolean;
}

/** A batch, found by its cover's code (`PB-3`): opens its batch page. */
export interface BatchHit extends SearchHit {
  number: number;
  siteId: RecordId;
  state: string;
}

export interface DesignHit extends SearchHit {
  name: string;
  sku: string | null;
  siteId: RecordId;
}

export interface SiteHit extends SearchHit {
  name: string;
  slug: string;
}

export interface UserHit extends SearchHit {
  email: string;
  siteId: RecordId;
  role: string;
}

/** `sites` and `users` only for admins; `batches` only when the query is a batch's code. */
export interface SearchResults {
  orders: OrderHit[];
  jobs: JobHit[];
  batches?: BatchHit[];
  designs: DesignHit[];
  sites?: SiteHit[];
  users?: UserHit[];
}

export const SEARCH_KINDS = ['orders', 'jobs', 'batches', 'designs', 'sites', 'users'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
