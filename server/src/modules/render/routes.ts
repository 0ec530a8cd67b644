// POST /api/images/from-polotno {document | designId, page?, dpi?, values?} → image/png of one page
// (the spec's name for "render the editor's document"; ours is the document the editor saves).
import { Router } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { parse } from '../../http/validate';
import type { DesignsService } from '../designs/service';
import { baseUrlOf } from '../uploads/routes';
import { DPI_RANGE, documentOf, valuesOf, type RenderService } from './service';
import { fieldError } from '../../http/fieldErrors';
import { canBeRowId } from '../../db';

const property = z.object({ name: z.string().max(200), value: z.union([z.string(), z.number(), z.boolean(), z.null()]) });

/** `values`: {name: value} or the line item's [{name, value}]. */
const values = z
  .union([z.record(z.string().max(200), z.string().max(5000)), z.array(property).max(200)], { error: 'must be {name: value} or [{name, value}]' })
  .transform((v) => (Array.isArray(v) ? valuesOf(v) : v));

export const fromPolotnoBody = z
  .object({
    document: z.unknown().optional(),
    designId: z.coerce.number({ error: 'must be a design id' }).int().positive('must be a design id').refine(canBeRowId, 'must be a design id').optional(),
    /** 1-based page number (default 1). */
    page: z.coerce.number({ error: 'must be a page number' }).int('must be a whole number').min(1, 'must be 1 or more').default(1),
    dpi: z.coerce.number({ error: 'must be a number' }).min(DPI_RANGE.min, `must be at least ${DPI_RANGE.min}`).max(DPI_RANGE.max, `must be at most ${DPI_RANGE.max}`).default(300),
    values: values.optional(),
  })
  .refine((b) => b.document !== undefined || b.designId !== undefined, { message: 'is required (or a design)', path: ['document'] });

export function renderRoutes(render: RenderService, designs: DesignsService, config: Config): Router {
  const r = Router();
  // A designId names a design of the caller's site (another site's: 404).
  r.post('/from-polotno', allow.ownSite.describe('One page of a design document rendered as PNG (with a line\'s values)', { body: fromPolotnoBody }), async (req, res) => {
    const body = parse(fromPolotnoBody, req.body);
    let doc = body.document;
    if (doc === undefined) {
      const design = await designs.get(actorOf(req), body.designId!);
      doc = documentOf(design);
      if (doc === undefined) throw fieldError('designId', `The design "${design.name}" has no document.`);
    }
    const parsed = render.parseDocument(doc);
    if (body.page > parsed.pages.length) throw fieldError('page', `must be at most ${parsed.pages.length} (the document has ${parsed.pages.length} page${parsed.pages.length === 1 ? '' : 's'})`);
    const out = await render.renderDocument(parsed, { dpi: body.dpi, values: body.values, pages: [body.page - 1], previewWidth: 0, ownOrigin: baseUrlOf(req, config) });
    res
      .status(200)
      .set({
        'Content-Type': 'image/png',
        'Content-Disposition': `inline; filename="page-${body.page}.png"`,
        'Cache-Control': 'no-store',
        // Which fields drew their sample (no value given): URL-encoded JSON list.
        'X-Missing-Fields': encodeURIComponent(JSON.stringify(out.missing)),
      })
      .send(out.pages[0]);
  });
  return r;
}
