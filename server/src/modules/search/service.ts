// The header search: what a user may see whose words start with what they typed, grouped by kind,
// each result with the admin route that opens it. Staff search their own site; admins every site,
// and sites and users as well.
import type { Deps } from '../../deps';
import { MAX_ROW_ID } from '../../db';
import type { Actor } from '../../http/types';
import { isAdmin } from '../auth';
import { siteScope } from '../auth';
import { searchKey } from '../orders';
import { parseSlugCode } from '../../../../common/api/scan';
import { jobInQueueLink } from '../../../../common/api/attention';
import { SEARCH_GROUP_SIZE, isSearchable, type BatchHit, type DesignHit, type JobHit, type OrderHit, type SearchResults, type SiteHit, type UserHit } from '../../../../common/api/search';
import { searchRepo, type BatchMatch, type DesignMatch, type JobMatch, type OrderKey, type OrderMatch, type UserMatch } from './repo';

const EMPTY: SearchResults = { orders: [], jobs: [], designs: [] };

const sub = (...parts: Array<string | null | undefined | false>) => parts.filter(Boolean).join(' · ');
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Which order keys to look up for a query, in the order their matches are shown. */
export function orderPrefixes(typed: string): Array<[OrderKey, string]> {
  const key = searchKey(typed);
  if (!key) return [];
  const out: Array<[OrderKey, string]> = [['name_lower', key]];
  // "#1024" and "1024" are the store's order number too (a store may name its orders "CN1024").
  const number = /^#?(\d+)$/.exec(key)?.[1];
  if (number) out.push(['order_number', number]);
  out.push(['store_order_id', typed.trim()], ['customer_lower', key], ['surname_lower', key], ['email_lower', key]);
  return out;
}

/** The first `n` distinct records, in order. */
function firstDistinct<T extends { id: number }>(rows: T[], n: number): T[] {
  const seen = new Set<number>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id)).slice(0, n);
}

export const checkOrderLink = (orderId: string) => `/check-order?id=${encodeURIComponent(orderId)}`;

function orderHit(o: OrderMatch, site: string | undefined): OrderHit {
  const customer = obj(o.storeData.customer);
  const person = customer.first_name || customer.last_name ? customer : obj(o.storeData.shipping_address);
  const who = [person.first_name, person.last_name].filter((v) => typeof v === 'string' && v).join(' ');
  const email = o.storeData.email ?? customer.email;
  return {
    id: o.id,
    label: o.name ? `Order ${o.name}` : `Order ${o.orderId}`,
    sub: sub(who, typeof email === 'string' && email, site, o.status),
    link: checkOrderLink(o.orderId),
    orderId: o.orderId,
    name: o.name,
    siteId: o.siteId,
    status: o.status,
    createdAt: o.createdAt,
  };
}

/** Where a job is opened: its order's page, else the list it is in. */
function jobLink(j: JobMatch): string {
  if (j.orderId) return checkOrderLink(j.orderId);
  if (j.isPrinted) return '/print-history';
  return jobInQueueLink(j.id, j.held);
}

const jobState = (j: JobMatch) => (j.isPrinted ? 'Printed' : j.withdrawn ? 'Withdrawn' : j.held ? 'Held by preflight' : 'Ready');

function jobHit(j: JobMatch, site: string | undefined): JobHit {
  return {
    id: j.id,
    label: `Job ${j.id} · ${j.productName}`,
    sub: sub(j.orderName ? `Order ${j.orderName}` : j.orderId && `Order ${j.orderId}`, jobState(j), site),
    link: jobLink(j),
    productName: j.productName,
    orderId: j.orderId,
    siteId: j.siteId,
    isPrinted: j.isPrinted,
  };
}

const batchHit = (b: BatchMatch, site: string | undefined): BatchHit => ({
  id: b.id,
  label: `Batch PB-${b.number}`,
  sub: sub(b.state, site),
  link: `/batches/${b.id}`,
  number: b.number,
  siteId: b.siteId,
  state: b.state,
});

const designHit = (d: DesignMatch, site: string | undefined): DesignHit => ({
  id: d.id,
  label: d.name,
  sub: sub(d.sku && `SKU ${d.sku}`, d.productType, site),
  link: `/design/${d.id}`,
  name: d.name,
  sku: d.sku,
  siteId: d.siteId,
});

// Users are edited in their site's editor (its Users list).
const userHit = (u: UserMatch, site: string | undefined): UserHit => ({
  id: u.id,
  label: [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email,
  sub: sub(u.email, u.role === 'admin' ? 'Admin' : 'Staff', site),
  link: `/sites/${u.siteId}`,
  email: u.email,
  siteId: u.siteId,
  role: u.role,
});

export function searchService(deps: Deps) {
  const repo = searchRepo(deps.db);
  const n = SEARCH_GROUP_SIZE;

  return {
    /** `q` is already trimmed and at most SEARCH_MAX_CHARS long (schema.ts). */
    async search(actor: Actor, q: string): Promise<SearchResults> {
      const admin = isAdmin(actor);
      const key = searchKey(q);
      if (!key || !isSearchable(key)) return admin ? { ...EMPTY, sites: [], users: [] } : { ...EMPTY };
      const siteId = siteScope(actor);
      // A code from the floor's paper: an item's slug (PJ-12, PJ-12-3: its job) or a batch cover's (PB-3).
      const read = parseSlugCode(q);
      // A code naming a row id no column can hold names nothing (and must not reach the query).
      const code = read && (read.kind === 'job' ? read.jobId : read.number) <= MAX_ROW_ID ? read : null;
      if (read && !code) return admin ? { ...EMPTY, sites: [], users: [] } : { ...EMPTY };

      const orders = code ? [] : firstDistinct(await repo.orders(siteId, orderPrefixes(q), n), n);
      // A job by its number or its slug's code, and the jobs of the orders found.
      const jobNumber = code?.kind === 'job' ? code.jobId : /^\d{1,9}$/.test(key) ? Number(key) : undefined;
      const [jobs, batches, designs, sites, users] = await Promise.all([
        repo.jobs(siteId, { id: jobNumber, orders: orders.map((o) => ({ siteId: o.siteId, orderId: o.orderId })) }, n),
        code?.kind === 'batch' ? repo.batches(siteId, code.number, n) : undefined,
        repo.designs(siteId, key, n),
        admin ? repo.sites(key, n) : undefined,
        admin ? repo.users(key, n) : undefined,
      ]);
      // Admins see records of every site: each result says whose.
      const names = admin ? await repo.siteNames([...orders, ...jobs, ...(batches ?? []), ...designs, ...(users ?? [])].map((r) => r.siteId)) : new Map<number, string>();
      const site = (id: number) => names.get(id);
      const out: SearchResults = {
        orders: orders.map((o) => orderHit(o, site(o.siteId))),
        jobs: jobs.map((j) => jobHit(j, site(j.siteId))),
        designs: designs.map((d) => designHit(d, site(d.siteId))),
      };
      if (batches) out.batches = batches.map((b) => batchHit(b, site(b.siteId)));
      if (admin) {
        out.sites = (sites ?? []).map((s): SiteHit => ({ id: s.id, label: s.name, sub: s.slug, link: `/sites/${s.id}`, name: s.name, slug: s.slug }));
        out.users = (users ?? []).map((u) => userHit(u, site(u.siteId)));
      }
      return out;
    },
  };
}

export type SearchService = ReturnType<typeof searchService>;
