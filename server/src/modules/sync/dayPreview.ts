// What a sync of a day will touch, known without asking the CRM (whose quota the sync itself needs):
// the constituents whose change the CRM's webhooks reported that day, or, without webhooks, how
// many the last sync of that day matched. Answered before the operator says yes to the sync.
import type { DayPreview } from '../../../../common/api/sync';
import { dayIn, dayWindow } from '../../lib/time';
import { anyDeliveryOf, deliveriesReceivedBetween } from '../inbox';
import type { SyncContext } from './context';
import type { RunData } from './records';
import type { SiteSync } from './siteSettings';
import { CLOUD_EVENT_TYPE, constituentOf, RE_SOURCE } from './webhook';

/** The change events a day sync also picks up (a deletion is not among the day's changed constituents). */
const CHANGE_TOPICS = [CLOUD_EVENT_TYPE, 'com.blackbaud.constituent.emailaddress.change.v1'] as const;

export async function dayPreview(ctx: Pick<SyncContext, 'db' | 'tz' | 'records'>, s: SiteSync, day: string): Promise<DayPreview> {
  if (await anyDeliveryOf(ctx.db, RE_SOURCE, s.site.id)) {
    const { from, to } = dayWindow(day);
    const constituents = new Set<string>();
    for (const { payload, receivedAt } of await deliveriesReceivedBetween(ctx.db, RE_SOURCE, s.site.id, CHANGE_TOPICS, from, to)) {
      const id = constituentOf((payload as { data?: unknown } | null)?.data);
      if (id !== undefined && dayIn(new Date(receivedAt), ctx.tz) === day) constituents.add(id);
    }
    return { day, contacts: constituents.size, basis: 'webhooks' };
  }
  const { rows } = await ctx.records.listRuns(s.site.id, { kind: 'day', field1: day }, 5, 0);
  const last = (rows as unknown as Array<{ data: RunData }>).find((r) => r.data.status !== 'running' && r.data.status !== 'failed');
  if (last?.data.progress) return { day, contacts: last.data.progress.matched, basis: 'last-run' };
  return { day, contacts: null, basis: null };
}
