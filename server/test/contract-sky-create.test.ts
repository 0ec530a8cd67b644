// Contract: our SKY API client creating constituents and notes against the CRM simulator (written
// from Blackbaud's Constituent API reference): the new constituent is found by email, by id and in
// the changed-since list; notes are created and listed; a wrong code-table entry comes back as an
// IntegrationError carrying the CRM's own message; a create whose answer is lost is never sent again.
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import { IntegrationError } from '../src/integrations/crmHttp';
import { createRaisersEdgeClient, type ReTokenStore } from '../src/integrations/raisersEdge';
import type { Site } from '../src/modules/sites/repo';
import { syncSettingsOf } from '../src/modules/sync/siteSettings';
import { createRaisersEdgeSimulator } from '../simulators/raisersEdge';
import { KEYS, listen, person } from './sync-world';

const NOW = new Date('2026-03-10T12:00:00.000Z');

async function crm() {
  const sim = createRaisersEdgeSimulator({ clientId: KEYS.clientId, clientSecret: KEYS.clientSecret, subscriptionKey: KEYS.subscriptionKey, refreshToken: KEYS.refreshToken, constituents: [person('1200')], now: () => NOW });
  const server = await listen(sim.app);
  afterAll(() => server.close());
  let refresh = KEYS.refreshToken;
  const store: ReTokenStore = { getRefreshToken: async () => refresh, saveRefreshToken: async (t) => void (refresh = t) };
  /** Every request the client sent (method + path), whether or not an answer came back. */
  const sent: string[] = [];
  /** When set, the next matching call reaches the CRM but its answer is lost on the way back. */
  let loseAnswerOf: RegExp | undefined;
  const fetchSpy = (async (url: string | URL, init?: RequestInit) => {
    const path = new URL(String(url)).pathname;
    sent.push(`${init?.method ?? 'GET'} ${path}`);
    const res = await fetch(url, init);
    if (loseAnswerOf?.test(path)) {
      loseAnswerOf = undefined;
      await res.arrayBuffer();
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    }
    return res;
  }) as typeof fetch;
  const re = createRaisersEdgeClient(
    { baseUrl: server.url, tokenUrl: `${server.url}/token`, clientId: KEYS.clientId, clientSecret: KEYS.clientSecret, subscriptionKey: KEYS.subscriptionKey },
    store,
    { fetch: fetchSpy, sleep: async () => undefined, random: () => 0.5, timeoutMs: 5000, maxRetryAfterSeconds: 60 },
  );
  return { sim, re, sent, loseAnswer: (path: RegExp) => void (loseAnswerOf = path) };
}

const posts = (sent: string[], path: string) => sent.filter((s) => s === `POST ${path}`).length;

describe('contract: SKY API create constituent', async () => {
  const { sim, re, sent, loseAnswer } = await crm();

  it('creates an individual with email and address; found by email search, by id and in changed-since', async () => {
    const { id } = await re.createConstituent({
      first: 'Bob',
      last: 'Norman',
      email: { address: 'bob.norman@mail.example.com', type: 'Email' },
      address: { lines: ['Chestnut Street 92', 'Flat 2'], city: 'Louisville', state: 'Kentucky', postalCode: '40202', country: 'United States', type: 'Home' },
    });
    expect(id).toMatch(/^\d+$/);
    expect(id).not.toBe('1200');

    const found = await re.searchByEmail('bob.norman@mail.example.com');
    expect(found.map((f) => f.id)).toEqual([id]);

    expect(await re.getConstituent(id)).toMatchObject({ id, type: 'Individual', first: 'Bob', last: 'Norman', name: 'Bob Norman', email: { address: 'bob.norman@mail.example.com', primary: true } });
    // The address went as the documented single address_lines string, lines kept apart.
    expect(sim.state.constituents.get(id)?.address).toEqual({ address_lines: 'Chestnut Street 92\r\nFlat 2', city: 'Louisville', state: 'Kentucky', postal_code: '40202', country: 'United States', type: 'Home', primary: true });

    const changed: string[] = [];
    for await (const page of re.changedSince('2026-03-10T00:00:00Z')) changed.push(...page.value.map((c) => c.id));
    expect(changed).toEqual([id]);
  });

  it('an individual with a last name only: no email, no address sent', async () => {
    const { id } = await re.createConstituent({ last: 'Anonymous' });
    expect(sim.state.constituents.get(id)).toMatchObject({ last: 'Anonymous', first: '', email: null });
    expect(sim.state.constituents.get(id)?.address).toBeUndefined();
  });

  it('an email type the organisation does not have: IntegrationError with the CRM\'s message, nothing created', async () => {
    const before = sim.state.constituents.size;
    const err = (await re.createConstituent({ last: 'Wrong', email: { address: 'wrong@example.org', type: 'Bogus' } }).catch((e: unknown) => e)) as IntegrationError;
    expect(err).toBeInstanceOf(IntegrationError);
    expect(err).toMatchObject({ service: 'raisers-edge', kind: 'http', info: { status: 400 } });
    expect(err.message).toContain("'Bogus' is not a valid email address type.");
    expect(err.message).toContain('create constituent');
    // One bad record, not a reason to stop a whole run.
    expect(err.fatal).toBe(false);
    expect(sim.state.constituents.size).toBe(before);
  });

  it('an address type the organisation does not have: the same, with the CRM\'s words', async () => {
    const err = (await re.createConstituent({ last: 'Wrong', address: { lines: ['1 Road'], type: 'Castle' } }).catch((e: unknown) => e)) as IntegrationError;
    expect(err).toBeInstanceOf(IntegrationError);
    expect(err.message).toContain("'Castle' is not a valid address type.");
    expect(err.info.body).toEqual([{ message: "'Castle' is not a valid address type.", error_name: 'InvalidAddressType', error_code: 400, raw_message: "'Castle' is not a valid address type." }]);
  });

  it('a dropped connection on the create is not retried: the caller must look the buyer up first', async () => {
    const before = posts(sent, '/constituent/v1/constituents');
    sim.dropNext(1, /^\/constituent\/v1\/constituents$/);
    const err = (await re.createConstituent({ last: 'Dropped', email: { address: 'dropped@example.org', type: 'Email' } }).catch((e: unknown) => e)) as IntegrationError;
    expect(err).toBeInstanceOf(IntegrationError);
    expect(err.kind).toBe('network');
    expect(posts(sent, '/constituent/v1/constituents') - before).toBe(1);
  });

  it('an answer lost after the CRM created the constituent: still one POST, so still one constituent', async () => {
    const before = posts(sent, '/constituent/v1/constituents');
    loseAnswer(/^\/constituent\/v1\/constituents$/);
    const err = await re.createConstituent({ last: 'Lost', email: { address: 'lost.answer@example.org', type: 'Email' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IntegrationError);
    expect(posts(sent, '/constituent/v1/constituents') - before).toBe(1);
    expect(sim.constituentsByEmail('lost.answer@example.org')).toHaveLength(1);
    // What the caller does next: the search finds the one the CRM did create.
    expect(await re.searchByEmail('lost.answer@example.org')).toHaveLength(1);
  });

  it('a 503 on the create is not retried either (a GET would be)', async () => {
    const before = posts(sent, '/constituent/v1/constituents');
    sim.failNext(1, 503, { path: /^\/constituent\/v1\/constituents$/ });
    const err = (await re.createConstituent({ last: 'Busy' }).catch((e: unknown) => e)) as IntegrationError;
    expect(err).toMatchObject({ kind: 'http', info: { status: 503 } });
    expect(posts(sent, '/constituent/v1/constituents') - before).toBe(1);

    const gets = () => sent.filter((s) => s === 'GET /constituent/v1/constituents/1200').length;
    const getsBefore = gets();
    sim.failNext(1, 503, { path: /^\/constituent\/v1\/constituents\/1200$/ });
    expect(await re.getConstituent('1200')).toMatchObject({ id: '1200' });
    expect(gets() - getsBefore).toBe(2);
  });
});

describe('contract: SKY API constituent notes and code tables', async () => {
  const { sim, re, sent } = await crm();

  it('a note is created on a constituent and listed with its fuzzy date', async () => {
    const { id } = await re.createNote({ constituent_id: '1200', type: 'General', summary: 'Order #1001', text: 'Bought 2 cards: Robin (x2)', date: { y: 2026, m: 3, d: 10 } });
    expect(id).toEqual(expect.any(String));
    expect(await re.constituentNotes('1200')).toEqual([{ id, constituent_id: '1200', type: 'General', summary: 'Order #1001', text: 'Bought 2 cards: Robin (x2)', date: { y: 2026, m: 3, d: 10 } }]);
    expect(sim.notesOf('1200')).toHaveLength(1);
  });

  it('a note type the organisation does not have: IntegrationError with the CRM\'s message, no note', async () => {
    const err = (await re.createNote({ constituent_id: '1200', type: 'Gossip', summary: 's', text: 't', date: { y: 2026, m: 3, d: 10 } }).catch((e: unknown) => e)) as IntegrationError;
    expect(err).toBeInstanceOf(IntegrationError);
    expect(err).toMatchObject({ kind: 'http', info: { status: 400 } });
    expect(err.message).toContain("'Gossip' is not a valid note type.");
    expect(sim.notesOf('1200')).toHaveLength(1);
  });

  it('a note on an unknown constituent is refused; the notes of an unknown constituent are a 404', async () => {
    const err = (await re.createNote({ constituent_id: '999999', type: 'General', summary: 's', text: 't', date: { y: 2026, m: 3, d: 10 } }).catch((e: unknown) => e)) as IntegrationError;
    expect(err.message).toContain('Constituent with ID 999999 was not found.');
    const listed = (await re.constituentNotes('999999').catch((e: unknown) => e)) as IntegrationError;
    expect(listed).toMatchObject({ kind: 'http', info: { status: 404 } });
  });

  it('a dropped connection on a note create is not retried', async () => {
    const before = posts(sent, '/constituent/v1/notes');
    sim.dropNext(1, /^\/constituent\/v1\/notes$/);
    await expect(re.createNote({ constituent_id: '1200', type: 'General', summary: 's', text: 't', date: { y: 2026, m: 3, d: 10 } })).rejects.toBeInstanceOf(IntegrationError);
    expect(posts(sent, '/constituent/v1/notes') - before).toBe(1);
  });

  it('the code tables: the organisation\'s email address, address and note types', async () => {
    sim.state.noteTypes.push('Shop order');
    expect(await re.emailAddressTypes()).toEqual(sim.state.emailAddressTypes);
    expect(await re.addressTypes()).toEqual(sim.state.addressTypes);
    expect(await re.noteTypes()).toContain('Shop order');
  });
});

describe('settings: the CRM code-table entries of a site', () => {
  const site = (env: Record<string, string>): Site => ({ id: 1, name: 'Charity', slug: 'charity', logo: null, theme: { mainColor: '#000' }, settings: { env: Object.entries(env).map(([key, value]) => ({ key, value })) }, createdAt: '', updatedAt: '' });
  const config = { dataDir: ':memory:' } as Config;

  it('default to Email, Home and General', () => {
    expect(syncSettingsOf(site({}), config).re).toMatchObject({ emailType: 'Email', addressType: 'Home', noteType: 'General' });
  });

  it('RE_EMAIL_TYPE, RE_ADDRESS_TYPE and RE_NOTE_TYPE name the organisation\'s own (trimmed)', () => {
    const re = syncSettingsOf(site({ RE_EMAIL_TYPE: ' Personal Email ', RE_ADDRESS_TYPE: 'Business', RE_NOTE_TYPE: 'Shop order' }), config).re;
    expect(re).toMatchObject({ emailType: 'Personal Email', addressType: 'Business', noteType: 'Shop order' });
  });
});
