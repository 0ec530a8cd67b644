// /api/sites/:site/routing (admins): the site's routing rules read and saved whole, a draft tried on
// recent or chosen orders without changing anything; and Route now on a held line (the site's staff too).
import { Router } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idempotent } from '../../http/idempotency';
import { parse } from '../../http/validate';
import type { RoutingRuleSet } from '../../../../common/api/routing';
import { routeNowAnswer, routeNowBody, routingTestAnswer, routingViewAnswer, ruleSetBody, testBody } from './schema';
import type { RoutingService } from './service';

export function routingRoutes(routing: RoutingService): Router {
  const r = Router({ mergeParams: true });
  const site = (params: Record<string, unknown>) => String(params.site);

  r.get('/routing', allow.admin.describe('The site\'s routing rules, capacity and lines each rule routed in the last 30 days', { response: routingViewAnswer }), async (req, res) => {
    ok(res, await routing.get(actorOf(req), site(req.params)));
  });

  r.put('/routing', allow.admin.describe('Save the site\'s routing rules whole (rules in order, a default, capacity per product type)', { body: ruleSetBody, response: routingViewAnswer }), async (req, res) => {
    ok(res, await routing.save(actorOf(req), site(req.params), parse(ruleSetBody, req.body) as RoutingRuleSet));
  });

  r.post('/routing/test', allow.admin.describe('Where a draft rule set would route the lines of recent or chosen orders, and units per floor day; nothing changes', { body: testBody, response: routingTestAnswer }), async (req, res) => {
    ok(res, await routing.test(actorOf(req), site(req.params), parse(testBody, req.body)));
  });

  r.post('/routing/route-now', allow.site.describe('Route now: an order\'s held lines (or one of them) routed by today\'s rules, or one held line made in house or sent to HP Site Flow as a person chooses (to)', { body: routeNowBody, response: routeNowAnswer }), idempotent, async (req, res) => {
    ok(res, await routing.routeNow(actorOf(req), site(req.params), parse(routeNowBody, req.body)));
  });

  return r;
}
