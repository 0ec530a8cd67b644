// The spec's connectivity test calls (§7 "Test calls"), admin only. Each answers what it reached:
// URL, HTTP status, latency and the error, per step. Nothing is written to the CRM or the platform;
// send-email sends a real message only when given a recipient.
import { Router, type Request } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { notFound } from '../../http/errors';
import { parse } from '../../http/validate';
import { emailTestBody, reCallBody, testBody } from './schema';
import type { SyncService } from './service';

export function syncTestRoutes(sync: SyncService): Router {
  const r = Router();

  /** The site named in the body (slug or id), else the admin's own site, else the first with the sync. */
  async function siteOf(req: Request, site: string | undefined) {
    const actor = actorOf(req);
    if (site) return sync.siteFor(actor, site);
    const all = await sync.syncSites();
    const chosen = all.find((s) => s.site.id === actor.siteId) ?? all[0];
    if (!chosen) throw notFound('No site has the CRM sync configured');
    return chosen;
  }

  r.post('/send-email', allow.admin.describe('Check a site\'s mail server (and send a test message with `to`)', { body: emailTestBody }), async (req, res) => {
    const { site, to } = parse(emailTestBody, req.body);
    ok(res, await sync.testEmail(await sync.mailSiteFor(actorOf(req), site), to));
  });

  r.post('/send-raiser-edge', allow.admin.describe('Raiser\'s Edge NXT connectivity test', { body: testBody }), async (req, res) => {
    const { site } = parse(testBody, req.body);
    ok(res, await sync.testRaisersEdge(await siteOf(req, site)));
  });

  r.post('/raiser-edge/call', allow.admin.describe('One GET to the site\'s Raiser\'s Edge NXT, answered as it came', { body: reCallBody }), async (req, res) => {
    const { site, path } = parse(reCallBody, req.body);
    ok(res, await sync.testRaisersEdgeCall(await siteOf(req, site), path));
  });

  r.post('/send-adestra', allow.admin.describe('Adestra connectivity test', { body: testBody }), async (req, res) => {
    const { site } = parse(testBody, req.body);
    ok(res, await sync.testAdestra(await siteOf(req, site)));
  });

  return r;
}
