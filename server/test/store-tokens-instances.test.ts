// One renewal of a store's token at a time: two callers of one instance share the renewal under
// way; two instances on one PostgreSQL database (each with its own connection pool) take turns on
// the store's lock, so exactly one token request reaches Shopify and both use its result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db';
import { shopifyAdminSettingsOf, type ShopifyAdminSettings } from '../src/integrations/shopifyAdmin';
import { createLogger } from '../src/lib/logger';
import { storeTokens } from '../src/modules/orders/storeTokens';
import { sitesRepo } from '../src/modules/sites/repo';
import { createWorld } from './harness';
import { SHOP_A, setSiteEnv } from './ordersKit';
import { startDocsFake, type DocsFake } from './shopifyDocsFake';

const log = createLogger('silent');

async function setUp(auth: 'client_credentials' | 'authorization_code') {
  const w = await createWorld();
  const fake: DocsFake = await startDocsFake({ clientId: 'cid', clientSecret: 'shpss_s', shopName: 'A', scope: 'read_orders', now: () => w.clock.now().getTime(), tokenDelayMs: 300 });
  await setSiteEnv(w, w.sites.a, { SHOPIFY_SHOP_DOMAIN: SHOP_A, SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_AUTH: auth, SHOPIFY_CLIENT_ID: 'cid', SHOPIFY_CLIENT_SECRET: 'shpss_s' });
  const settings = shopifyAdminSettingsOf((await sitesRepo(w.db).byId(w.sites.a))!) as ShopifyAdminSettings;
  return { w, fake, settings };
}

describe('one instance: callers at once share one renewal', async () => {
  const { w, fake, settings } = await setUp('client_credentials');
  afterAll(() => fake.stop());
  const tokens = storeTokens({ db: w.db, clock: w.clock, log });

  it('five calls due for renewal at once make one token request', async () => {
    await tokens.connect(w.sites.a, settings, null);
    w.clock.advance(86_399_000);
    const before = fake.tokenCalls.length;
    const got = await Promise.all(Array.from({ length: 5 }, () => tokens.sourceFor(w.sites.a, settings).current()));
    expect(fake.tokenCalls.length).toBe(before + 1);
    expect(new Set(got).size).toBe(1);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('two instances on PostgreSQL', () => {
  for (const auth of ['client_credentials', 'authorization_code'] as const) {
    describe(auth, () => {
      let ctx: Awaited<ReturnType<typeof setUp>>;
      let second: ReturnType<typeof createDb>;
      beforeAll(async () => {
        ctx = await setUp(auth);
        second = createDb(ctx.w.config.database);
      });
      afterAll(async () => {
        await second.destroy();
        await ctx.fake.stop();
      });

      it('renew a token due at the same moment once, and both use the new token', async () => {
        const { w, fake, settings } = ctx;
        const a = storeTokens({ db: w.db, clock: w.clock, log });
        const b = storeTokens({ db: second, clock: w.clock, log });
        if (auth === 'client_credentials') await a.connect(w.sites.a, settings, null);
        else await a.install(w.sites.a, settings, fake.issueCode(), null);
        const first = await a.sourceFor(w.sites.a, settings).current();
        w.clock.advance(auth === 'client_credentials' ? 86_399_000 : 3_599_000);
        const before = fake.tokenCalls.length;
        const [ta, tb] = await Promise.all([a.sourceFor(w.sites.a, settings).current(), b.sourceFor(w.sites.a, settings).current()]);
        expect(fake.tokenCalls.length - before).toBe(1);
        expect(ta).toBe(tb);
        expect(ta).not.toBe(first);

        // Both refused by the store (401) at once: one renewal again.
        fake.revokeAccessTokens();
        const [ra, rb] = await Promise.all([a.sourceFor(w.sites.a, settings).afterRefusal(ta), b.sourceFor(w.sites.a, settings).afterRefusal(tb)]);
        expect(fake.tokenCalls.length - before).toBe(2);
        expect(ra).toBe(rb);
        expect(ra).not.toBe(ta);
      });
    });
  }
});
