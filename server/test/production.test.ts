// What gets printed for an order line: one path for the Jobs download, the order screens, Send HP
// (order, line, automatic) and order-to-artwork. A personalised line prints the customer's text
// wherever it is made, and a line is made in one place: in house (Jobs) or by the provider.
import { afterAll, describe, expect, it } from 'vitest';
import { closeRenderWorkers } from '../src/modules/render/service';
import { bearer, binary } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, makeDesign, order, setSiteEnv } from './ordersKit';
import { cardDoc } from './renderKit';


describe('production: one owner of what gets printed', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  afterAll(() => closeRenderWorkers());
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const pdfOf = async (path: string, body: unknown, token = w.tokens.userA) => {
    const res = await w.request().post(path).set(bearer(token)).send(body as object).buffer(true).parse(binary);
    expect(res.status, res.status === 200 ? '' : res.body.toString()).toBe(200);
    return res.body as Buffer;
  };
  const queue = async () => (await w.request().get('/api/print-jobs?readyForPrint=1&isPrinted=0&pageSize=100').set(bearer(w.tokens.userA))).body.data.list as Array<{ id: number; shopifyOrderId: string; lineItemId: string }>;

  const sku = 'CARD-PERSONAL';
  await makeDesign(w, w.tokens.adminA, { name: 'Balloons for a name', sku, productType: 'Card', isCustomizable: true, hpSKU: 'HP-CARD-A5', data: { document: cardDoc() } });

  /** A paid order of the personalised card, one line per recipient name, delivered by webhook. */
  async function orderFor(...names: string[]) {
    const o = order({ skus: names.map(() => sku) });
    o.line_items.forEach((l, i) => (l.properties = [{ name: 'Recipient name', value: names[i] }]));
    expect((await deliver(w, o)).status).toBe(200);
    return { orderId: o.id, lineIds: o.line_items.map((l) => l.id) };
  }

  /** The print file the provider was given for a line, fetched as the provider fetches it. */
  async function providerPdf(sourceOrderId: string, lineId: string): Promise<Buffer> {
    const sent = w.sim.orderBySource(sourceOrderId);
    expect(sent, `HP has ${sourceOrderId}`).toBeDefined();
    const items = sent!.body.orderData.items as Array<{ sourceItemId: string; components: Array<{ path: string }> }>;
    const path = items.find((i) => i.sourceItemId === lineId)!.components[0].path;
    const res = await fetch(path);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  it('Send HP gives the provider the personalised file an operator downloads for that line, not the sample', async () => {
    const { orderId, lineIds } = await orderFor('Zainab', 'Olumide');
    const sent = await post('/api/online-stores/shopify-webhook/send-hp', { id: orderId });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [zainab, olumide] = await Promise.all(lineIds.map((l) => providerPdf(orderId, l)));
    // Another name, another file: each line is drawn with its own property.
    expect(zainab.equals(olumide)).toBe(false);
    const jobs = (await w.request().get(`/api/print-jobs/from-shopify-order/${orderId}`).set(bearer(w.tokens.userA))).body.data.list as Array<{ id: number; lineItemId: string; data: Record<string, unknown>; madeBy: string }>;
    expect(jobs.map((j) => j.data.personalised)).toEqual([true, true]);
    expect(jobs.map((j) => j.data.needsReview ?? false)).toEqual([false, false]);
    // The operator's copy of a line (order screen) is the provider's, byte for byte.
    const operators = await pdfOf('/api/online-stores/shopify-webhook/hood-download-pdf', { id: orderId, lineId: lineIds[0], printInHouse: true });
    expect(operators.equals(zainab)).toBe(true);
  });

  it('automatic sending (HP_AUTO_SEND=1) sends the personalised file too', async () => {
    await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
    try {
      const { orderId, lineIds } = await orderFor('Grace');
      await w.services.fulfilment.processDue();
      const grace = await providerPdf(orderId, lineIds[0]);
      const { orderId: other, lineIds: otherLines } = await orderFor('Ibrahim');
      await w.services.fulfilment.processDue();
      expect(grace.equals(await providerPdf(other, otherLines[0]))).toBe(false);
      const [job] = (await w.request().get(`/api/print-jobs/from-shopify-order/${orderId}`).set(bearer(w.tokens.userA))).body.data.list;
      expect(job).toMatchObject({ madeBy: 'provider', data: { personalised: true } });
    } finally {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '0' });
    }
  });

  it("order-to-arwork and the Jobs download give the line's personalised file; the same job always the same bytes", async () => {
    const { orderId } = await orderFor('Amara');
    const made = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: orderId });
    expect(made.status).toBe(200);
    const [job] = made.body.data.jobs as Array<{ id: number; madeBy: string; data: Record<string, unknown> }>;
    expect(job).toMatchObject({ madeBy: 'inHouse', data: { personalised: true } });
    const first = await pdfOf('/api/pdf/from-print-job', { id: job.id });
    const again = await pdfOf('/api/pdf/from-print-job', { id: job.id });
    expect(again.equals(first)).toBe(true);
    // The same job from the order screen: the same file.
    const line = (await w.request().get(`/api/print-jobs/${job.id}`).set(bearer(w.tokens.userA))).body.data.lineItemId;
    expect((await pdfOf('/api/online-stores/shopify-webhook/hood-download-pdf', { id: orderId, lineId: line })).equals(first)).toBe(true);
  });

  it('a line sent to the provider never appears in the Jobs queue; the job and the order say where it is made', async () => {
    const { orderId, lineIds } = await orderFor('Noor');
    expect((await post('/api/online-stores/shopify-webhook/send-hp', { id: orderId })).status).toBe(200);
    expect((await queue()).filter((j) => j.shopifyOrderId === orderId)).toEqual([]);
    const [job] = (await w.request().get(`/api/print-jobs/from-shopify-order/${orderId}`).set(bearer(w.tokens.userA))).body.data.list;
    expect(job.madeBy).toBe('provider');
    const detail = await w.request().get(`/api/hp-data/order/${orderId}`).set(bearer(w.tokens.userA));
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.data.lines).toEqual([expect.objectContaining({ lineId: lineIds[0], madeBy: 'provider', printJobId: job.id })]);

    // Printing it in house as well asks first: nothing handed out, nothing changed.
    const refused = await post('/api/pdf/from-print-job', { id: job.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, details: { code: 'AT_PROVIDER', printJobId: job.id } });
    expect(refused.body.error).toMatch(/made by HP Site Flow/);
    const flagged = await post('/api/print-jobs', { id: job.id, isPDFDownloaded: true });
    expect(flagged.status).toBe(409);
    const line = await post('/api/online-stores/shopify-webhook/hood-download-pdf', { id: orderId, lineId: lineIds[0] });
    expect(line.status).toBe(409);
    expect(line.body.details.code).toBe('AT_PROVIDER');
    expect((await w.request().get(`/api/print-jobs/${job.id}`).set(bearer(w.tokens.userA))).body.data).toMatchObject({ madeBy: 'provider', isPDFDownloaded: false });

    // The operator's yes is recorded: the item moves to the Jobs side, downloaded by them.
    await pdfOf('/api/pdf/from-print-job', { id: job.id, printInHouse: true });
    const after = (await w.request().get(`/api/print-jobs/${job.id}`).set(bearer(w.tokens.userA))).body.data;
    expect(after).toMatchObject({ madeBy: 'inHouse', isPDFDownloaded: true, downloadedByUserId: w.users.userA });
    const events = await w.db('print_job_events').where({ job_id: job.id }).orderBy('id').select('kind', 'user_id');
    expect(events).toEqual([
      { kind: 'to-in-house', user_id: w.users.userA },
      { kind: 'downloaded', user_id: w.users.userA },
    ]);
  });

  it('sending lines that are in the Jobs queue asks first; the yes moves them to the provider and is recorded', async () => {
    const { orderId, lineIds } = await orderFor('Kofi', 'Mei');
    const made = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: orderId });
    const jobIds = (made.body.data.jobs as Array<{ id: number }>).map((j) => j.id);
    expect((await queue()).filter((j) => j.shopifyOrderId === orderId)).toHaveLength(2);

    const asked = await post('/api/online-stores/shopify-webhook/send-hp', { id: orderId });
    expect(asked.status).toBe(409);
    expect(asked.body.error).toMatch(/2 lines are in the Jobs queue/);
    expect(asked.body.details).toMatchObject({ code: 'IN_JOBS_QUEUE', lines: lineIds.map((lineId, i) => expect.objectContaining({ lineId, printJobId: jobIds[i] })) });
    expect(w.sim.orderBySource(orderId)).toBeUndefined();
    expect(await w.db('outbox').where({ site_id: w.sites.a }).whereLike('dedupe_key', `%${orderId}%`)).toEqual([]);

    const single = await post('/api/online-stores/shopify-webhook/send-hp-single-line', { orderId, lineId: lineIds[1] });
    expect(single.status).toBe(409);
    expect(single.body.details.lines).toHaveLength(1);

    const sent = await post('/api/online-stores/shopify-webhook/send-hp', { id: orderId, sendFromJobs: true });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await queue()).filter((j) => j.shopifyOrderId === orderId)).toEqual([]);
    for (const id of jobIds) {
      expect(await w.db('print_job_events').where({ job_id: id, kind: 'to-provider' }).select('user_id')).toEqual([{ user_id: w.users.userA }]);
    }
    // The provider was given the very files of those jobs.
    const kofi = await providerPdf(orderId, lineIds[0]);
    expect(kofi.equals(await pdfOf('/api/pdf/from-print-job', { id: jobIds[0], printInHouse: true }))).toBe(true);
  });

  it('a printed line is named as printed when a send would make it again', async () => {
    const { orderId, lineIds } = await orderFor('Ines');
    const [job] = (await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: orderId })).body.data.jobs;
    await pdfOf('/api/pdf/from-print-job', { id: job.id });
    expect((await post('/api/print-jobs', { id: job.id, isPrinted: true })).status).toBe(200);
    const asked = await post('/api/online-stores/shopify-webhook/send-hp-single-line', { orderId, lineId: lineIds[0] });
    expect(asked.status).toBe(409);
    expect(asked.body.error).toMatch(/already printed in house/);
    expect(asked.body.details.lines[0]).toMatchObject({ isPrinted: true });
  });

  it("another site's user cannot reach the line's file or job (404)", async () => {
    const { orderId, lineIds } = await orderFor('Sol');
    const res = await post('/api/online-stores/shopify-webhook/hood-download-pdf', { id: orderId, lineId: lineIds[0] }, w.tokens.userB);
    expect(res.status).toBe(404);
    expect(await w.db('print_jobs').where({ shopify_order_id: orderId })).toEqual([]);
  });
});
