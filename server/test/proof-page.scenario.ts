// The buyer's proof page in a real browser (Debian's Chromium through playwright-core): no
// accessibility violation axe-core can find, nothing wider than a 360 px phone, in the shop's own
// name and colour (never another site's), and Approve works as a plain form.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, SCREENSHOTS } from '../../e2e/browser';
import { closeRenderWorkers } from '../src/modules/render/service';
import { startSmtpCatcher } from '../simulators/smtp';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, makeDesign, order, setSiteEnv } from './ordersKit';
import { cardDoc } from './renderKit';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('the proof page on a phone', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  const smtp = await startSmtpCatcher();
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await smtp.close();
    await closeRenderWorkers();
  });
  await w.db('sites').where({ id: w.sites.a }).update({ name: 'Bloom Cards', theme: JSON.stringify({ mainColor: '#c2185b' }) });
  await w.db('sites').where({ id: w.sites.b }).update({ name: 'Other Shop', theme: JSON.stringify({ mainColor: '#00ff00' }) });
  await setSiteEnv(w, w.sites.a, { PROOF_REQUIRED: 'personalised', SMTP_URL: smtp.url, PROOF_FROM: 'proofs@bloom.example' });
  await makeDesign(w, w.tokens.adminA, { name: 'Birthday card', sku: 'CARD-A11Y', productType: 'Card', isCustomizable: true, hpSKU: 'HP-CARD-A5', data: { document: cardDoc() } });

  it('passes axe-core, fits 360 px, shows only its shop, and approves without script', async () => {
    const o = order({ skus: ['CARD-A11Y'] });
    o.name = '#1042';
    o.line_items[0].properties = [{ name: 'Recipient name', value: 'Ada' }, { name: 'Message', value: 'Happy birthday' }];
    await deliver(w, o);
    await w.services.waits.releaseDue();
    const token = /\/proof\/([^\s"<]+)/.exec(smtp.messages().at(-1)!.text)![1];

    browser = await launch();
    const page = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
    const res = await page.goto(`${w.appUrl}/proof/${token}`);
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Your proof for #1042' }).waitFor();
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    const shot = path.join(SCREENSHOTS, 'proof-page-360.png');
    await page.screenshot({ path: shot, fullPage: true });
    // npm run docs:screenshots asks for the docs' copy (docs/images/proof-page.png).
    if (process.env.PROOF_PAGE_IMAGE) fs.copyFileSync(shot, process.env.PROOF_PAGE_IMAGE);

    // Run in the page through the browser's debugger, not as a script tag: the page's CSP stays as it is.
    await page.evaluate(axeSource);
    const result = await page.evaluate(async () => (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> } }).axe.run(document, { resultTypes: ['violations'] }));
    expect(result.violations.map((v) => `${v.id} (${v.nodes.length})`)).toEqual([]);

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const text = await page.locator('body').innerText();
    expect(text).toContain('Bloom Cards');
    expect(text).not.toContain('Other Shop');
    expect(await page.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(194, 24, 91)');
    expect(await page.getByRole('img', { name: /^Page 1 of \d of your proof$/ }).count()).toBe(1);

    await page.getByRole('button', { name: 'Approve and print' }).click();
    await page.getByText('You approved this proof').waitFor();
    expect(page.url()).toContain('answered=approved');
  }, 180_000);
});
