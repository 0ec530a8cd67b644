// The buyer's proof (GET /proof/:token, POST /api/proofs/:token/approve and /request-change: the
// signed link is the credential, no sign-in) and staff's part in a wait (POST /api/orders/:id/release,
// /extend-hold, POST /api/orders/:id/lines/:lineId/personalisation).
import express, { Router, type Response } from 'express';
import { z } from 'zod';
import { allow } from '../http/access';
import { actorOf } from '../http/auth';
import { ok } from '../http/envelope';
import { HttpError } from '../http/errors';
import { fieldError } from '../http/fieldErrors';
import { jsonBody, parse } from '../http/validate';
import { proofPage, proofRefusalPage } from './proofPage';
import { linkRefusalSentence, refusalStatus, type WaitsWorkflow } from './waits';

const LINK = 'the signed proof link (HMAC, expiring, one order line)';
const tokenOf = (v: unknown) => String(v ?? '').slice(0, 200);

const changeBody = z.object({ message: z.string({ error: 'is required: say what should change' }).trim().min(1, 'is required: say what should change').max(2000, 'must be 2000 characters or fewer') });
const siteQuery = z.object({ siteId: z.preprocess((v) => (v === '' || v === undefined ? undefined : v), z.coerce.number().int().positive().optional()) });
const personalisationBody = z.object({
  properties: z
    .array(z.object({ name: z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(100, 'must be 100 characters or fewer'), value: z.coerce.string().max(1000, 'must be 1000 characters or fewer') }), { error: 'must be a list of {name, value}' })
    .max(50, 'must be 50 properties or fewer'),
  siteId: z.number().int().positive().optional(),
});

const extendBody = z.object({
  minutes: z.coerce.number({ error: 'must be a number of minutes' }).int('must be whole minutes').min(1, 'must be at least 1').max(10_080, 'must be a week (10080 minutes) or less'),
  siteId: z.number().int().positive().optional(),
});

/** The page answers a form post (a browser without script): back to the page, which shows the answer. */
const fromForm = (req: express.Request) => Boolean(req.is('application/x-www-form-urlencoded')) && (req.get('accept') ?? '').includes('text/html');

function page(res: Response, status: number, html: string) {
  res.status(status).set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex' }).type('html').send(html);
}

/** Mounted on the app before /api (its own body parsers: the page posts forms). */
export function proofRoutes(waits: WaitsWorkflow): Router {
  const r = Router();
  r.get('/proof/:token', allow.credential(LINK).describe('The buyer\'s proof page: the pages that will print, Approve and Ask for a change'), async (req, res) => {
    const token = tokenOf(req.params.token);
    const view = await waits.openProof(token);
    if ('refused' in view) {
      const status = refusalStatus(view.refused);
      // A program asking (not a browser) gets the API's envelope rather than the page.
      if (req.accepts(['html', 'json']) !== 'html') return void res.status(status).json({ success: false, error: linkRefusalSentence(view.refused) });
      return page(res, status, proofRefusalPage(linkRefusalSentence(view.refused), view.site));
    }
    const notice = req.query.answered === 'approved' ? 'Thank you: your proof is approved.' : req.query.answered === 'change' ? 'Thank you: we have your message.' : undefined;
    page(res, 200, proofPage(view, token, notice));
  });

  const body = [express.urlencoded({ extended: false, limit: '16kb' }), jsonBody('16kb')];
  const answer = async (req: express.Request, res: Response, run: () => Promise<{ state: string }>) => {
    const token = tokenOf(req.params.token);
    try {
      const out = await run();
      if (fromForm(req)) return void res.redirect(303, `/proof/${encodeURIComponent(token)}?answered=${out.state}`);
      ok(res, out);
    } catch (err) {
      if (!fromForm(req) || !(err instanceof HttpError) || err.status >= 500) throw err;
      page(res, err.status, proofRefusalPage(err.message));
    }
  };
  r.post('/api/proofs/:token/approve', allow.credential(LINK).describe('The buyer approves the proof: the line goes to production'), ...body, (req, res) => answer(req, res, () => waits.approve(tokenOf(req.params.token))));
  r.post('/api/proofs/:token/request-change', allow.credential(LINK).describe('The buyer asks for a change to the proof, with a message', { body: changeBody }), ...body, (req, res) =>
    answer(req, res, async () => waits.requestChange(tokenOf(req.params.token), parse(changeBody, req.body ?? {}).message)),
  );
  return r;
}

/** Mounted at /api/orders. */
export function waitRoutes(waits: WaitsWorkflow): Router {
  const r = Router();
  const orderIdOf = (v: unknown) => {
    const id = String(v ?? '').trim();
    if (!id || id.length > 64) throw fieldError('id', 'is required (64 characters at most)');
    return id;
  };
  r.post('/:id/release', allow.site.describe('Release now: the order\'s waiting lines (change window, proof) are made at once', { query: siteQuery }), async (req, res) => {
    ok(res, await waits.releaseOrder(actorOf(req), orderIdOf(req.params.id), parse(siteQuery, req.query).siteId));
  });
  r.post('/:id/extend-hold', allow.site.describe('Extend the order\'s change window by some minutes', { body: extendBody, query: siteQuery }), async (req, res) => {
    const input = parse(extendBody, req.body ?? {});
    ok(res, await waits.extendHold(actorOf(req), orderIdOf(req.params.id), input.minutes, input.siteId ?? parse(siteQuery, req.query).siteId));
  });
  r.post('/:id/lines/:lineId/personalisation', allow.site.describe('Edit a line\'s personalisation; a line awaiting its proof gets a new one', { body: personalisationBody }), async (req, res) => {
    const input = parse(personalisationBody, req.body ?? {});
    const lineId = String(req.params.lineId ?? '').trim();
    if (!lineId || lineId.length > 64) throw fieldError('lineId', 'is required (64 characters at most)');
    ok(res, await waits.editPersonalisation(actorOf(req), { id: orderIdOf(req.params.id), lineId, siteId: input.siteId ?? parse(siteQuery, req.query).siteId, properties: input.properties }));
  });
  return r;
}
