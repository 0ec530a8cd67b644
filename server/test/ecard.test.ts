// The e-card of an order line: its properties (recipient, message, send date) read the way the
// store writes them, and its front drawn with them for the e-mail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { FORMATS } from '../../common/design-doc/types';
import { seasonsGreetingsEcardDocument } from '../../seeds/printProduction';
import { ECARD_IMAGE_WIDTH, ecardOf, renderEcardFront } from '../src/modules/pipeline/ecard';
import { closeRenderWorkers } from '../src/modules/render/service';
import { createWorld } from './harness';
import { boxPx, cardDoc, diff, rawOf } from './renderKit';

const props = (o: Record<string, unknown>) => ({ properties: Object.entries(o).map(([name, value]) => ({ name, value })) });

describe('ecardOf: the e-card properties of a line', () => {
  it('reads the four properties, names in any case and with spaces, values trimmed', () => {
    const r = ecardOf(props({ ' recipient NAME ': '  Zainab  ', 'RECIPIENT EMAIL': ' zainab@example.org ', message: ' Warm wishes ', 'Send Date': ' 2026-12-20 ' }));
    expect(r).toEqual({ ok: true, ecard: { recipientName: 'Zainab', recipientEmail: 'zainab@example.org', message: 'Warm wishes', sendDate: '2026-12-20' } });
  });

  it('no send date (absent or blank): null, sent at once; other properties are ignored', () => {
    expect(ecardOf(props({ 'Recipient email': 'a@b.co', 'Gift wrap': 'yes' }))).toEqual({ ok: true, ecard: { recipientName: '', recipientEmail: 'a@b.co', message: '', sendDate: null } });
    expect(ecardOf(props({ 'Recipient email': 'a@b.co', 'Send date': '   ' }))).toMatchObject({ ok: true, ecard: { sendDate: null } });
  });

  it('a blank first value of a name does not hide a later one', () => {
    expect(ecardOf(props({ 'Recipient email': '', 'recipient email': 'late@example.org' }))).toMatchObject({ ok: true, ecard: { recipientEmail: 'late@example.org' } });
  });

  it('says every problem: a missing email, a bad email, a date that is not YYYY-MM-DD or not a real day', () => {
    expect(ecardOf({ properties: null })).toEqual({ ok: false, problems: ['Recipient email is missing'] });
    expect(ecardOf(props({ 'Recipient email': '  ' }))).toEqual({ ok: false, problems: ['Recipient email is missing'] });
    expect(ecardOf(props({ 'Recipient email': 'zainab at example.org', 'Send date': '20/12/2026' }))).toEqual({
      ok: false,
      problems: ['Recipient email "zainab at example.org" is not an e-mail address', 'Send date "20/12/2026" is not a date (YYYY-MM-DD)'],
    });
    expect(ecardOf(props({ 'Recipient email': 'a@b.co', 'Send date': '2026-02-30' }))).toEqual({ ok: false, problems: ['Send date "2026-02-30" is not a date (YYYY-MM-DD)'] });
  });
});

describe('renderEcardFront: the front drawn with the line for the e-mail', async () => {
  const w = await createWorld();
  afterAll(() => closeRenderWorkers());
  const design = { id: 41, name: "Season's greetings e-card", data: { document: seasonsGreetingsEcardDocument() } };
  const line = (name: string, message: string) => props({ 'Recipient name': name, 'Recipient email': 'x@example.org', Message: message });

  it('an e-card front is about 1200 px wide, in the format proportions, PNG; the name and the message are drawn', async () => {
    const spec = FORMATS.ecard;
    const a = await renderEcardFront(w.services.render, design, line('Zainab', 'Peace and joy to you all'));
    const meta = await sharp(a.png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: a.width, height: a.height });
    expect(a.width).toBe(ECARD_IMAGE_WIDTH);
    expect(a.height).toBe(Math.round((ECARD_IMAGE_WIDTH * spec.height) / spec.width));
    expect(a.missing).toEqual([]);
    // Kept for a person to look at (the test passes without it).
    fs.writeFileSync(path.join(os.tmpdir(), 'ecard-seasons-front.png'), a.png);

    const otherName = await renderEcardFront(w.services.render, design, line('Olumide', 'Peace and joy to you all'));
    const otherMessage = await renderEcardFront(w.services.render, design, line('Zainab', 'See you in the spring!'));
    const [ra, rName, rMessage] = await Promise.all([a, otherName, otherMessage].map((r) => rawOf(r.png)));
    // Another name changes the name's box only; another message the message's box only.
    const dpi = (ECARD_IMAGE_WIDTH * 25.4) / spec.width;
    const boxOf = (id: string) => boxPx(design.data.document.pages[0].layers.find((l) => l.id === id)!, dpi, spec.bleed, 2);
    const byName = diff(ra, rName, boxOf('recipient'));
    expect(byName.inside).toBeGreaterThan(100);
    expect(byName.outside).toBe(0);
    const byMessage = diff(ra, rMessage, boxOf('message'));
    expect(byMessage.inside).toBeGreaterThan(100);
    expect(byMessage.outside).toBe(0);
    // The same line, the same picture.
    expect(diff(ra, await rawOf((await renderEcardFront(w.services.render, design, line('Zainab', 'Peace and joy to you all'))).png)).outside).toBe(0);
  });

  it('a property the line lacks draws the sample and is named in missing', async () => {
    const r = await renderEcardFront(w.services.render, design, props({ 'Recipient email': 'x@example.org', message: 'Hello' }));
    expect(r.missing).toEqual(['Recipient name']);
  });

  it('a card design is drawn 1200 px wide too (its front page only)', async () => {
    const r = await renderEcardFront(w.services.render, { id: 7, name: 'Card', data: { document: cardDoc() } }, line('Sam', 'Hi'));
    expect(r.width).toBe(ECARD_IMAGE_WIDTH);
    expect(r.height).toBe(Math.round((ECARD_IMAGE_WIDTH * 216) / 154));
  });

  it('a design without a document, or with a broken one: a clear 400 naming the design', async () => {
    await expect(renderEcardFront(w.services.render, { id: 9, name: 'Plain', data: {} }, line('A', 'B'))).rejects.toMatchObject({ status: 400, message: 'The design "Plain" has no document to render' });
    const broken = { id: 10, name: 'Broken', data: { document: { version: 1, format: 'ecard', pages: 'none' } } };
    const err = await renderEcardFront(w.services.render, broken, line('A', 'B')).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
    expect((err as Error).message).toMatch(/^The design "Broken" \(id 10\): /);
  });
});
