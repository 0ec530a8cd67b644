// A person's choice of where a line goes (Send HP, Add to print jobs), recorded as such: the line's
// route says "manual, by <name>", the history has the decision, and capacity the line had taken on
// the floor goes back when it leaves the floor.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { byUserId, recordChange } from '../history';
import { ROUTING_ACTION_NAMES, type RoutingAction } from '../../../../common/api/routing';
import { lineRoutesOf, releaseFloorCapacity, saveLineRoute } from './queries';

type Trx = Db | Knex.Transaction;

/**
 * Manual overrides (Send HP, Add to print jobs): the line's route says a person chose, by name; a
 * line that had taken the floor's capacity gives it back when it leaves the floor.
 */
export async function recordManualRoute(trx: Trx, input: { siteId: number; orderId: string; lineIds: string[]; action: RoutingAction; actorId: number | null; at: string }): Promise<void> {
  const by = await byUserId(trx, input.actorId);
  const name = 'automatic' in by ? by.automatic : by.name;
  const before = await lineRoutesOf(trx, input.siteId, input.orderId);
  for (const lineId of input.lineIds) {
    const prev = before.get(lineId);
    if (prev?.action === input.action && prev.by === 'manual') continue;
    if (prev?.day && prev.productType && input.action !== 'inHouse') await releaseFloorCapacity(trx, input.siteId, prev.productType, prev.day, prev.units);
    await saveLineRoute(trx, {
      siteId: input.siteId,
      orderId: input.orderId,
      lineId,
      action: input.action,
      ruleId: null,
      by: 'manual',
      byUserId: input.actorId,
      byName: name,
      at: input.at,
      reason: null,
      destination: null,
      productType: prev?.productType ?? null,
      units: prev?.units ?? 0,
      day: input.action === 'inHouse' ? (prev?.day ?? null) : null,
    });
    await recordChange(trx, { at: input.at, siteId: input.siteId, kind: 'order', subjectId: input.orderId, by, action: 'routed', from: prev?.action ?? null, to: input.action, reason: `line ${lineId}: ${ROUTING_ACTION_NAMES[input.action]}, manual, by ${name}` });
  }
}
