// The e-mails the demo's mail catcher received, for the admin's "Caught e-mails" page (admin only).
import { Router } from 'express';
import { z } from 'zod';
import { allow } from '../../http/access';
import { ok } from '../../http/envelope';
import { parse } from '../../http/validate';
import type { MailCatcherService } from './service';

const idParams = z.object({ id: z.coerce.number().int().min(1, 'id: must be a caught e-mail id').max(2 ** 31) });
const attachmentParams = idParams.extend({ index: z.coerce.number().int().min(0, 'index: must be 0 or more').max(10_000) });

export function mailCatcherRoutes(catcher: MailCatcherService): Router {
  const r = Router();

  r.get('/caught-emails', allow.admin.describe('The demo mail catcher\'s messages, newest first (404 without the catcher)'), (_req, res) => {
    ok(res, catcher.list());
  });

  r.get('/caught-emails/:id', allow.admin.describe('One caught message: headers, HTML and text parts, attachments'), (req, res) => {
    ok(res, catcher.one(parse(idParams, req.params).id));
  });

  r.get('/caught-emails/:id/attachments/:index', allow.admin.describe('A caught message\'s attachment, as its bytes'), (req, res) => {
    const { id, index } = parse(attachmentParams, req.params);
    const file = catcher.attachment(id, index);
    // Whatever a message carried is shown as bytes, never run as a page of ours.
    res.status(200).set({ 'Content-Type': file.contentType, 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; sandbox", 'Cache-Control': 'private, max-age=3600' }).send(file.content);
  });

  return r;
}
