// /api/attention: Needs attention, asked every 30 s by the admin's page and menu (a read: no idempotency key).
// Each answer carries an ETag; a tab that sends it back (If-None-Match) while nothing changed gets
// 304 and no body.
import { Router } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { okSerialised } from '../../http/envelope';
import { parse } from '../../http/validate';
import { attentionQuery } from './schema';
import type { AttentionService } from './service';

/** Whether an If-None-Match header names this ETag (a list, weak or strong, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export function attentionRoutes(attention: AttentionService): Router {
  const r = Router();
  r.get('/', allow.ownSite.describe('Needs attention: what is wrong on the floor, worst first, with counts (ETag; If-None-Match answers 304 when nothing changed)', { query: attentionQuery }), async (req, res) => {
    const { json, etag } = await attention.reply(actorOf(req), parse(attentionQuery, req.query).clientId);
    // Each tab asks again itself, with the ETag; a shared cache must not keep one user's answer.
    res.set({ ETag: etag, 'Cache-Control': 'private, no-cache' });
    if (matches(req.get('If-None-Match'), etag)) {
      res.status(304).end();
      return;
    }
    okSerialised(res, json);
  });
  return r;
}
