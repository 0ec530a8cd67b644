// The charity's order pipeline under faults: two app instances on one PostgreSQL database; the CRM
// (Raiser's Edge NXT) and Adestra simulators and the SMTP catcher run in this process, so they
// outlive the apps. Paid orders come in through the signed store webhook, each buyer consenting to
// marketing and each order with an e-card line to its own recipient. While both instances wait for
// the CRM's answer to a constituent create (the create has happened in the CRM; the app never hears
// back), one of them is SIGKILLed (the other takes its row over when the lease runs out), then both
// (the restarted instances take them over). Afterwards every buyer is ONE constituent with one OptIn
// consent and one note, one Adestra contact on the buyers' list, every recipient got one e-card (one
// Message-ID), and every pipeline row is sent. A second scenario runs only the e-card step and kills
// the instances while the SMTP catcher holds its 250 (the message has arrived, the app waits): the
// rows are resent after the restart, so a recipient may get the card twice, under one Message-ID.
//
// How the app avoids the double: the CRM step keeps "create sent" on its row before it asks, and a
// row taken over after a crash searches the CRM by e-mail (for up to two attempts) before it creates
// again; an e-card's Message-ID is fixed per row, so a resend after a kill is the same message.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdestraSimulator } from '../server/simulators/adestra';
import { createRaisersEdgeSimulator } from '../server/simulators/raisersEdge';
import { shopifyJson, signShopifyBody } from '../server/simulators/shopify';
import { startSmtpCatcher } from '../server/simulators/smtp';
import { cardDoc, nameLayer } from '../server/test/renderKit';
import { holdingFront } from './lib/holdingFront';
import { freshPostgres, twoInstances } from './lib/appProcess';
import { api, waitFor } from './lib/hp';
import { openAppDb } from './lib/inspect';
import { prng, signIn, sleep } from './lib/store';

// At least 4: each kill waits for both instances to hold a constituent create, so each half needs two orders.
const N = Math.max(4, Number(process.env.FAULTS_N ?? 4));
const baseSeed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const KIND = 'order-pipeline';
const BUYERS_LIST = 7;
const ECARD_SKU = 'FAULTS-ECARD';
const RE_KEYS = { clientId: 'faults-client', clientSecret: 'faults-client-secret', subscriptionKey: 'faults-sub-key', refreshToken: 'faults-refresh-0' };
const ADESTRA_TOKEN = 'faults-adestra-token';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
});

async function listen(app: express.Express) {
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The CRM simulator behind a front that, while `holding`, keeps the answers of constituent creates:
 * the constituent exists in the CRM, the caller waits for its answer.
 */
async function startCrmSim() {
  const sim = createRaisersEdgeSimulator({ ...RE_KEYS, constituents: [], consents: [] });
  const front = await holdingFront(sim.app, (req) => req.method === 'POST' && req.path === '/constituent/v1/constituents');
  return { sim, ...front };
}

interface Buyer {
  orderId: string;
  email: string;
  recipient: string;
  body: string;
}

/** N paid orders, each buyer consenting to e-mail marketing, each with an e-card line to a recipient of its own. */
function planOrders(seed: number): Buyer[] {
  return Array.from({ length: N }, (_, i) => {
    const orderId = (8_300_000_000_000_000_000n + BigInt(seed % 1_000_000) * 1_000_000n + BigInt(i)).toString();
    const lineId = (1_500_000_000_000_000_000n + BigInt(seed % 1_000_000) * 1_000_000n + BigInt(i)).toString();
    const at = new Date(Date.parse('2026-11-20T09:00:00Z') + i * 1000).toISOString();
    const email = `buyer${i}.${seed % 100_000}@faults.example.org`;
    const recipient = `friend${i}.${seed % 100_000}@faults.example.net`;
    const payload = {
      id: orderId,
      name: `#${40_000 + i}`,
      order_number: 40_000 + i,
      created_at: at,
      updated_at: at,
      email,
      financial_status: 'paid',
      fulfillment_status: null,
      customer: {
        id: (6_200_000_000_000_000_000n + BigInt(i)).toString(),
        first_name: 'Buyer',
        last_name: `Number ${i}`,
        email,
        email_marketing_consent: { state: 'subscribed', opt_in_level: 'single_opt_in', consent_updated_at: at },
      },
      line_items: [
        {
          id: lineId,
          product_id: '7000000000000000003',
          variant_id: '4100000000000000003',
          sku: ECARD_SKU,
          name: 'Faults e-card',
          title: 'Faults e-card',
          quantity: 1,
          properties: [
            { name: 'Recipient name', value: `Friend ${i}` },
            { name: 'Recipient email', value: recipient },
            { name: 'Message', value: `Warm wishes from buyer ${i}` },
          ],
        },
      ],
      billing_address: { first_name: 'Buyer', last_name: `Number ${i}`, address1: `${i} Mill Lane`, address2: null, city: 'York', zip: 'YO1 7HH', province: null, country: 'United Kingdom', country_code: 'GB' },
    };
    return { orderId, email, recipient, body: shopifyJson(payload) };
  });
}

/** Which steps the site runs automatically on a paid order. */
interface Steps {
  crm: boolean;
  adestra: boolean;
  ecard: boolean;
}

/**
 * The simulators, a fresh database, two app instances on it and a site wired to the simulators with
 * the given steps automatic, an E-card design for its lines; the store's deliverer of paid orders.
 */
async function startWorld(name: string, seed: number, steps: Steps) {
  console.log(`[${name}] seed ${seed} (FAULTS_SEED=${seed} to replay), ${N} orders`);
  const slug = `pipeline-${seed % 100_000}`;
  const crm = await startCrmSim();
  cleanups.push(crm.close);
  const dropDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-faults-adestra-'));
  cleanups.push(async () => fs.rmSync(dropDir, { recursive: true, force: true }));
  const adestra = createAdestraSimulator({ token: ADESTRA_TOKEN, dropDir, lists: [{ id: BUYERS_LIST, name: 'Shop buyers' }] });
  const adestraServer = await listen(adestra.app);
  cleanups.push(adestraServer.close);
  const smtp = await startSmtpCatcher({ port: 0 });
  cleanups.push(() => smtp.close());
  const db = await freshPostgres();
  cleanups.push(db.drop);
  // A short lease, so the survivor takes a killed instance's row over quickly; the CRM's answer may
  // be held for a while before the kill, so the client waits longer than that.
  const env = { DATABASE_URL: db.url, OUTBOX_LEASE_SECONDS: '5', OUTBOX_RETRY_BASE_SECONDS: '1', SYNC_HTTP_TIMEOUT_MS: '60000' };
  const { apps, fail } = await twoInstances(env, cleanups);
  const token = await signIn(apps[0].baseUrl);

  // The site, wired to the simulators, the chosen steps automatic; an E-card design for its lines.
  const shopDomain = `${slug}.myshopify.com`;
  const secret = `whsec-${crypto.randomBytes(12).toString('hex')}`;
  const siteEnv: Record<string, string> = {
    SHOPIFY_SHOP_DOMAIN: shopDomain,
    SHOPIFY_WEBHOOK_SECRET: secret,
    RE_BASE_URL: crm.baseUrl,
    RE_TOKEN_URL: `${crm.baseUrl}/token`,
    RE_CLIENT_ID: RE_KEYS.clientId,
    RE_CLIENT_SECRET: RE_KEYS.clientSecret,
    RE_SUBSCRIPTION_KEY: RE_KEYS.subscriptionKey,
    RE_REFRESH_TOKEN: RE_KEYS.refreshToken,
    ADESTRA_BASE_URL: `${adestraServer.url}/api/rest/1`,
    ADESTRA_TOKEN: ADESTRA_TOKEN,
    ADESTRA_TABLE_ID: '1',
    ADESTRA_OPTIN_LIST_ID: '1',
    ADESTRA_UNSUB_LIST_ID: '2',
    ADESTRA_EXPORT_DIR: dropDir,
    ADESTRA_BUYERS_LIST_ID: String(BUYERS_LIST),
    PIPELINE_ADD_TO_CRM: steps.crm ? '1' : '0',
    PIPELINE_ADD_TO_ADESTRA: steps.adestra ? '1' : '0',
    PIPELINE_SEND_ECARD: steps.ecard ? '1' : '0',
    SMTP_URL: smtp.url,
    ECARD_FROM: 'cards@faults.example.org',
  };
  const made = await api<{ id?: number }>(apps[0].baseUrl, token, 'POST', '/api/admin/sites', { name: `Faults ${slug}`, slug, settings: { env: Object.entries(siteEnv).map(([key, value]) => ({ key, value })) } });
  if (made.status !== 201 || !made.body.id) fail(`site creation failed: ${made.status} ${JSON.stringify(made.body)}`);
  const siteId = made.body.id!;
  const design = await api(apps[0].baseUrl, token, 'POST', '/api/designs', { name: 'Faults e-card', sku: ECARD_SKU, productType: 'E-card', isCustomizable: true, data: { document: cardDoc({ name: nameLayer() }) }, siteId });
  if (design.status !== 200) fail(`design: ${design.status} ${JSON.stringify(design.body)}`);
  const appDb: Knex = openAppDb(apps[0], db.url);
  cleanups.push(() => appDb.destroy());

  // The store delivers each paid order (retried, like the store, until an instance answers 2xx).
  const deliver = async (b: Buyer) => {
    const webhookId = crypto.randomUUID();
    const eventId = crypto.randomUUID();
    for (let k = 0; ; k++) {
      const up = apps.filter((a) => a.running);
      const res = await fetch(`${up[k % up.length].baseUrl}/api/online-stores/shopify-webhook`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Shopify-Topic': 'orders/paid',
          'X-Shopify-Hmac-Sha256': signShopifyBody(secret, b.body),
          'X-Shopify-Shop-Domain': shopDomain,
          'X-Shopify-API-Version': '2025-10',
          'X-Shopify-Webhook-Id': webhookId,
          'X-Shopify-Event-Id': eventId,
          'X-Shopify-Triggered-At': new Date().toISOString(),
        },
        body: b.body,
      }).catch(() => undefined);
      await res?.text();
      if (res?.ok) return;
      if (k > 50) throw new Error(`the order ${b.orderId} was never acknowledged (last ${res?.status})`);
      await sleep(200);
    }
  };
  const rowsOf = async () => (await appDb('outbox').where({ site_id: siteId, kind: KIND }).select('id', 'status', 'result', 'payload', 'error', 'attempts')) as Array<{ id: number; status: string; result: unknown; payload: unknown; error: string | null; attempts: number }>;
  return { crm, adestra, smtp, apps, fail, deliver, rowsOf };
}

async function crmScenario(name: string, seed: number) {
  const r = prng(seed);
  const { crm, adestra, smtp, apps, fail, deliver, rowsOf } = await startWorld(name, seed, { crm: true, adestra: true, ecard: true });

  // Every step of every order so far: one CRM row and one Adestra row per order, one e-card row per line.
  const doneFor = (n: number) => async () => {
    const rows = await rowsOf();
    return rows.length === 3 * n && rows.every((x) => x.status !== 'pending');
  };
  const bothHolding = () => waitFor('both instances to wait for a constituent create answer', async () => crm.held() === 2, 90_000, 50).catch(fail);

  // Kill 1: both instances wait for the answer to a constituent create (a worker pass runs one row
  // at a time); one of them, chosen by the seed, is killed. The other gets its answer and takes the
  // killed instance's row over when its lease runs out.
  const buyers = planOrders(seed);
  const first = buyers.slice(0, Math.ceil(N / 2));
  crm.hold(true);
  await Promise.all(first.map(deliver)).catch(fail);
  await bothHolding();
  const victim = r.int(0, 1);
  await apps[victim].kill();
  crm.hold(false);
  crm.release();
  console.log(`[${name}] killed instance ${victim} while it waited for its constituent create answer`);
  await waitFor('the first orders\' pipeline rows to be done', doneFor(first.length), 120_000).catch(fail);
  await apps[victim].start().catch(fail);

  // Kill 2: both instances killed while both wait for their answers; restarted, they take the rows over.
  const second = buyers.slice(first.length);
  crm.hold(true);
  await Promise.all(second.map(deliver)).catch(fail);
  await bothHolding();
  await Promise.all(apps.map((a) => a.kill()));
  crm.hold(false);
  crm.release();
  console.log(`[${name}] killed both instances while each waited for a constituent create answer`);
  await Promise.all(apps.map((a) => a.start())).catch(fail);
  await waitFor('every pipeline row to be done', doneFor(N), 180_000).catch(fail);

  // --- in the CRM: one constituent per buyer, one OptIn consent, one note -----------------------
  const creates = crm.sim.state.calls.filter((c) => c.method === 'POST' && c.path === '/constituent/v1/constituents');
  console.log(`[${name}] CRM: ${creates.length} constituent creates, ${crm.sim.state.constituents.size} constituents; ${smtp.messages().length} e-mails caught`);
  for (const b of buyers) {
    const constituents = crm.sim.constituentsByEmail(b.email);
    expect(constituents, `constituents of ${b.email}`).toHaveLength(1);
    const id = constituents[0].id;
    expect(crm.sim.consentsOf(id).map((c) => [c.channel, c.constituent_consent_response]), `consents of ${b.email}`).toEqual([['Email', 'OptIn']]);
    expect(crm.sim.notesOf(id), `notes of ${b.email}`).toHaveLength(1);
    // --- in Adestra: one contact per buyer, on the buyers' list
    const contacts = [...adestra.state.contacts.values()].filter((c) => c.email === b.email);
    expect(contacts, `Adestra contacts of ${b.email}`).toHaveLength(1);
    expect(adestra.isOnList(b.email, BUYERS_LIST), `${b.email} on the buyers' list`).toBe(true);
    // --- by e-mail: the recipient's e-card, one message (a resend after a kill keeps its Message-ID)
    const mails = smtp.messages().filter((m) => m.envelope.to.includes(b.recipient));
    expect(mails.length, `e-mails to ${b.recipient}`).toBeGreaterThanOrEqual(1);
    expect(new Set(mails.map((m) => m.messageId)).size, `distinct Message-IDs to ${b.recipient}`).toBe(1);
    expect(mails[0].messageId).toBeTruthy();
  }
  expect(crm.sim.state.constituents.size).toBe(N);

  // --- the app knows: every row sent, the killed create recognised in the CRM --------------------
  const rows = await rowsOf();
  expect(rows.filter((x) => x.status !== 'sent').map((x) => [x.id, x.status, x.error]), 'pipeline rows not sent').toEqual([]);
  const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  const crmRows = rows.filter((x) => json<{ step: string }>(x.payload).step === 'addToRaisersEdge');
  expect(crmRows).toHaveLength(N);
  // The killed instances' creates (one, then two) went out and were never answered: their rows,
  // taken over, found the constituent by e-mail instead of creating another.
  const lost = crmRows.filter((x) => json<{ createSentAt?: string }>(x.result).createSentAt && json<{ created?: boolean }>(x.result).created !== true);
  expect(lost.length, 'CRM rows whose create was lost to a kill, finished by finding the constituent').toBe(3);
  for (const x of lost) expect(x.attempts, 'a lost create is finished by a later attempt').toBeGreaterThan(1);
}

/**
 * Only the e-card step automatic. While an instance waits for the mail server's 250 (the server has
 * the message, its reply is held), both instances are SIGKILLed, then (second half of the orders)
 * one chosen by the seed. Every recipient gets the card, and a resend is the same message.
 */
async function ecardScenario(name: string, seed: number) {
  const r = prng(seed);
  const { smtp, apps, fail, deliver, rowsOf } = await startWorld(name, seed, { crm: false, adestra: false, ecard: true });
  // One e-card row per order: the CRM and Adestra steps are off for the site.
  const doneFor = (n: number) => async () => {
    const rows = await rowsOf();
    return rows.length === n && rows.every((x) => x.status !== 'pending');
  };
  const aSendHeld = () => waitFor('an instance to wait for the mail server\'s 250', async () => smtp.heldCount() >= 1, 90_000, 20).catch(fail);
  const buyers = planOrders(seed);
  const first = buyers.slice(0, Math.ceil(N / 2));
  const second = buyers.slice(first.length);

  // Kill 1: both instances killed while at least one waits for its 250: that e-card is with the
  // mail server, its row still pending, so the restarted instances send it again.
  smtp.holdReplies(true);
  await Promise.all(first.map(deliver)).catch(fail);
  await aSendHeld();
  const heldAtKill = smtp.heldCount();
  await Promise.all(apps.map((a) => a.kill()));
  smtp.holdReplies(false);
  smtp.releaseReplies();
  console.log(`[${name}] killed both instances while ${heldAtKill} e-card send(s) waited for the 250`);
  await Promise.all(apps.map((a) => a.start())).catch(fail);
  await waitFor('the first orders\' e-card rows to be sent', doneFor(first.length), 120_000).catch(fail);

  // Kill 2: one instance, chosen by the seed, killed while a send waits; the held 250 (if it was the
  // survivor's) is then sent. Whether the victim was the one waiting is up to the scheduling.
  smtp.holdReplies(true);
  await Promise.all(second.map(deliver)).catch(fail);
  await aSendHeld();
  const victim = r.int(0, 1);
  await apps[victim].kill();
  smtp.holdReplies(false);
  smtp.releaseReplies();
  console.log(`[${name}] killed instance ${victim} while an e-card send waited for the 250`);
  await apps[victim].start().catch(fail);
  await waitFor('every e-card row to be sent', doneFor(N), 180_000).catch(fail);

  // --- by e-mail: every recipient got the card; a resend carries the same Message-ID -------------
  const perRecipient = buyers.map((b) => ({ b, mails: smtp.messages().filter((m) => m.envelope.to.includes(b.recipient)) }));
  const doubled = perRecipient.filter((x) => x.mails.length > 1).map((x) => x.b.recipient);
  console.log(`[${name}] ${smtp.messages().length} e-mails caught for ${N} e-cards; sent twice (same Message-ID): ${doubled.join(', ') || 'none'}`);
  for (const { b, mails } of perRecipient) {
    expect(mails.length, `e-mails to ${b.recipient}`).toBeGreaterThanOrEqual(1);
    expect(mails.length, `e-mails to ${b.recipient}: one, or one resend after a kill`).toBeLessThanOrEqual(2);
    expect(new Set(mails.map((m) => m.messageId)).size, `distinct Message-IDs to ${b.recipient}`).toBe(1);
    expect(mails[0].messageId).toBeTruthy();
  }
  // The first kill always lands mid-send: the mail server had the held message(s), the rows did not.
  expect(doubled.length, 'recipients whose e-card was resent after the kill mid-send').toBeGreaterThanOrEqual(heldAtKill);

  // --- the app knows: every row sent, with the Message-ID that went out ---------------------------
  const rows = await rowsOf();
  expect(rows.filter((x) => x.status !== 'sent').map((x) => [x.id, x.status, x.error]), 'e-card rows not sent').toEqual([]);
  const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  const sentIds = new Set(smtp.messages().map((m) => m.messageId));
  for (const x of rows) {
    expect(json<{ step: string }>(x.payload).step).toBe('sendEcard');
    expect(sentIds.has(json<{ messageId?: string }>(x.result).messageId ?? null), `row ${x.id}'s Message-ID was caught`).toBe(true);
  }
}

describe('the order pipeline under faults', () => {
  it('PostgreSQL, two instances: buyers whose constituent creates were killed mid-answer are one constituent, one contact, one e-card each', () => crmScenario('pipeline/pg', baseSeed), 300_000);
  it('PostgreSQL, two instances: e-cards whose 250 was never heard (instances killed mid-send) reach each recipient under one Message-ID', () => ecardScenario('pipeline-ecard/pg', baseSeed + 1), 300_000);
});
