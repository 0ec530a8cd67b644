// HP Site Flow connectivity test (POST /api/test/send-hp): are the site's settings complete, and
// does HP take our signature? One read-only call — GET /api/order/{an id no order has} — so
// nothing is created at HP. Any answer but 401/403 means the key pair and the signing scheme were
// accepted; HP's own answer is shown whenever something is wrong.
import crypto from 'node:crypto';
import type { Actor } from '../../http/types';
import { notFound } from '../../http/errors';
import { HpError } from '../../integrations/hpSiteflow';
import { siteScope } from '../auth';
import type { ConnectivityCheck as Check } from '../../../../common/api/sync';
import { findSite, findSiteBySlug } from '../sites';
import { clientFor, type FulfilmentContext } from './context';
import { hpSettingsOf } from './settings';

export interface HpConnectivity {
  site: string;
  scheme: string;
  checks: Check[];
}

export async function testHp(ctx: FulfilmentContext, actor: Actor, siteRef?: string): Promise<HpConnectivity> {
  const scope = siteScope(actor, undefined, 'Site not found');
  const ref = siteRef ?? (actor.siteId ? String(actor.siteId) : undefined);
  const site = ref ? ((await findSiteBySlug(ctx.db, ref)) ?? (/^[1-9]\d{0,9}$/.test(ref) ? await findSite(ctx.db, Number(ref)) : undefined)) : undefined;
  if (!site || (scope !== undefined && site.id !== scope)) throw notFound('Site not found');
  const { settings, missing, invalid } = hpSettingsOf(site.settings.env);
  const problems = [...missing.map((k) => `${k} is not set`), ...invalid];
  const checks: Check[] = [{ step: 'settings', url: null, status: null, latencyMs: null, ok: !problems.length, error: problems.length ? problems.join('; ') : null }];
  if (problems.length) return { site: site.slug, scheme: settings.scheme, checks };

  // An id no order has: HP looks it up only after checking the signature.
  const probeId = crypto.randomBytes(12).toString('hex');
  const client = clientFor(ctx, settings, { retries: 0 });
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/api/order/${probeId}`;
  const started = Date.now();
  try {
    await client.getOrder(probeId);
    checks.push({ step: 'signed call (GET /api/order/{id})', url, status: 200, latencyMs: Date.now() - started, ok: true, error: null });
  } catch (err) {
    if (!(err instanceof HpError)) throw err;
    const refused = err.status === 401 || err.status === 403;
    const unreachable = err.status === 0 || err.status >= 500;
    const ok = !refused && !unreachable;
    checks.push({
      step: 'signed call (GET /api/order/{id})',
      url,
      status: err.status || null,
      latencyMs: Date.now() - started,
      ok,
      error: refused
        ? `HP refused the key or the signature (${settings.scheme} scheme): check HP_API_KEY, HP_API_SECRET and HP_AUTH_SCHEME — ${err.message}`
        : unreachable
          ? err.message
          : null,
      ...(ok ? {} : { body: err.body ?? null }),
    });
  }
  return { site: site.slug, scheme: settings.scheme, checks };
}
