// Ship-by on what the screens list: every print job and every order line gets `shipBy` and `due`
// (common/api/shipBy.ts), from its order's time, its product type and its site's settings, at the
// server's clock. Settings are read once per site of a list, never per row.
import { dueOf, shipByOf, type ShipBySettings, type ShipByState } from '../../../../common/api/shipBy';
import type { Deps } from '../../deps';
import { productTypesOfSkus } from '../designs';
import { progressRank } from '../orders';
import type { OrderRecord } from '../orders';
import type { OrderLine } from '../orders';
import { type PrintJob, printJobLinesOfOrders } from '../print-jobs';
import { unitsToMake } from '../../../../common/api/units';
import { findSite } from '../sites';
import { shipBySettingsOfEnv } from './settings';

type JobFacts = Pick<PrintJob, 'clientId' | 'createdAt' | 'orderCreatedAt' | 'orderStatus' | 'productType' | 'isPrinted' | 'withdrawn'>;

export function shipByViews({ db, clock, config }: Pick<Deps, 'db' | 'clock' | 'config'>) {
  const timeZone = config.sync.timezone;

  async function settingsOfSites(siteIds: Iterable<number>): Promise<Map<number, ShipBySettings>> {
    const ids = [...new Set(siteIds)];
    const sites = await Promise.all(ids.map((id) => findSite(db, id)));
    return new Map(ids.map((id, i) => [id, shipBySettingsOfEnv(sites[i]?.settings.env ?? [])]));
  }

  const stateOf = (settings: ShipBySettings, orderedAt: string, productType: string | null, progress: Parameters<typeof dueOf>[2], now: Date): ShipByState => {
    const shipBy = shipByOf(orderedAt, productType, settings, timeZone);
    return { shipBy, due: dueOf(shipBy, now, progress, settings.atRiskHours, timeZone) };
  };

  /**
   * A job counts from its store order's time (a reprint keeps it: same order), a job made by hand
   * from its own creation. Shipped and cancelled are the order's; a withdrawn job owes nothing.
   */
  async function onJobs<J extends JobFacts>(jobs: J[]): Promise<Array<J & ShipByState>> {
    if (!jobs.length) return [];
    const settings = await settingsOfSites(jobs.map((j) => j.clientId));
    const now = clock.now();
    return jobs.map((j) => ({
      ...j,
      ...stateOf(settings.get(j.clientId)!, j.orderCreatedAt ?? j.createdAt, j.productType, { printed: j.isPrinted, shipped: j.orderStatus === 'shipped', cancelled: j.withdrawn !== null || j.orderStatus === 'cancelled' }, now),
    }));
  }

  const onJob = async <J extends JobFacts>(job: J): Promise<J & ShipByState> => (await onJobs([job]))[0];

  /**
   * Each line of each order (data.line_items[i]) gets its ship-by. Its product type is its job's
   * design's, else the design with its SKU; printed is its job's (or the provider's progress),
   * shipped the order's or the store's fulfilment of the line; a line with no units left owes nothing.
   */
  async function onOrders(orders: OrderRecord[]): Promise<OrderRecord[]> {
    const withLines = orders.filter((o) => Array.isArray(o.data?.line_items) && o.data.line_items.length);
    if (!withLines.length) return orders;
    const bySite = new Map<number, OrderRecord[]>();
    for (const o of withLines) bySite.set(o.siteId, [...(bySite.get(o.siteId) ?? []), o]);
    const settings = await settingsOfSites(bySite.keys());
    const now = clock.now();
    const views = new Map<OrderRecord, OrderRecord>();
    await Promise.all(
      [...bySite].map(async ([siteId, siteOrders]) => {
        const lines = (o: OrderRecord) => (o.data.line_items ?? []) as OrderLine[];
        const skus = [...new Set(siteOrders.flatMap((o) => lines(o).map((l) => (typeof l?.sku === 'string' ? l.sku.trim() : '')).filter(Boolean)))];
        const [jobs, types] = await Promise.all([
          printJobLinesOfOrders(db, siteId, siteOrders.map((o) => o.field1 ?? '').filter(Boolean)),
          productTypesOfSkus(db, siteId, skus),
        ]);
        const jobOf = new Map(jobs.map((j) => [`${j.shopifyOrderId}\n${j.lineItemId}`, j]));
        for (const o of siteOrders) {
          const status = o.status ?? (typeof o.data.status === 'string' ? o.data.status : null);
          const line_items = lines(o).map((line) => {
            if (!line || typeof line !== 'object') return line;
            const job = jobOf.get(`${o.field1}\n${String(line.id)}`);
            const sku = typeof line.sku === 'string' ? line.sku.trim() : '';
            const productType = job?.productType ?? types.get(sku) ?? null;
            const progress = {
              printed: Boolean(job?.isPrinted) || progressRank(status) >= progressRank('printed'),
              shipped: status === 'shipped' || line.fulfillment_status === 'fulfilled',
              cancelled: status === 'cancelled' || Boolean(job?.withdrawn) || unitsToMake(line) === 0,
            };
            return { ...line, ...stateOf(settings.get(siteId)!, o.createdAt, productType, progress, now) };
          });
          views.set(o, { ...o, data: { ...o.data, line_items } });
        }
      }),
    );
    return orders.map((o) => views.get(o) ?? o);
  }

  /**
   * The ship-by of lines shipped (the reports' on-time rate), in the same order: from the order's
   * time and the type of the line's job (a line without a job counts as "other products"); null
   * without an order time.
   */
  async function ofShippedLines(lines: ReadonlyArray<{ siteId: number; orderId: string; lineId: string; orderCreatedAt: string | null }>): Promise<Array<string | null>> {
    if (!lines.length) return [];
    const settings = await settingsOfSites(lines.map((l) => l.siteId));
    const typeOf = new Map<string, string | null>();
    for (const siteId of new Set(lines.map((l) => l.siteId))) {
      const orderIds = [...new Set(lines.filter((l) => l.siteId === siteId).map((l) => l.orderId))];
      for (const j of await printJobLinesOfOrders(db, siteId, orderIds)) typeOf.set(`${siteId}\n${j.shopifyOrderId}\n${j.lineItemId}`, j.productType);
    }
    return lines.map((l) => (l.orderCreatedAt ? shipByOf(l.orderCreatedAt, typeOf.get(`${l.siteId}\n${l.orderId}\n${l.lineId}`) ?? null, settings.get(l.siteId)!, timeZone) : null));
  }

  return { onJobs, onJob, onOrders, ofShippedLines, settingsOfSites };
}

export type ShipByViews = ReturnType<typeof shipByViews>;
