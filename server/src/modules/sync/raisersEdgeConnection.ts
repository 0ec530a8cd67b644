// Connecting a site to Raiser's Edge NXT (SKY API authorisation-code flow) and keeping it
// connected: an admin's Connect sends the browser to Blackbaud with a `state` that is unguessable,
// bound to the site and the admin, single use and short-lived; Blackbaud sends the browser back to
// our callback with a code, exchanged at once for the first refresh token (stored in settings.env,
// never shown). A refresh Blackbaud refuses (invalid_grant) marks the site "needs reconnect" until
// the next successful connect.
import crypto from 'node:crypto';
import { badRequest } from '../../http/errors';
import type { Actor } from '../../http/types';
import { envValue } from '../../lib/secrets';
import { assertAdmin } from '../auth';
import { findUser } from '../users';
import { connectionRepo } from './connectionRepo';
import type { SyncContext } from './context';
import { errorMessage } from './runs';
import { readEnv, type SiteSync } from './siteSettings';
import { siteForWebhook } from './sites';

/** How long an admin has to grant access at Blackbaud once Connect was clicked. */
export const CONNECT_STATE_TTL_MS = 10 * 60_000;

const hashOf = (state: string) => crypto.createHash('sha256').update(state).digest('hex');

/** Our callback's path under the public base URL (what the Blackbaud application must list as redirect URI). */
export const callbackPath = (siteSlug: string) => `/api/sites/${encodeURIComponent(siteSlug)}/raiser-edge/callback`;

/** Where the admin's browser is sent: Blackbaud's authorisation page with a fresh state for this site and admin. */
export async function startConnect(ctx: Pick<SyncContext, 'db' | 'clock'>, s: SiteSync, actor: Actor, publicBase: string): Promise<{ url: string; expiresAt: string; redirectUri: string }> {
  assertAdmin(actor, 'Only an admin can connect Raiser\'s Edge');
  if (!s.re.clientId) throw badRequest('RE_CLIENT_ID is not set for this site: enter the Blackbaud application\'s ID in the site\'s settings first');
  const repo = connectionRepo(ctx.db);
  const now = ctx.clock.now();
  const state = crypto.randomBytes(32).toString('base64url');
  const redirectUri = `${publicBase.replace(/\/$/, '')}${callbackPath(s.site.slug)}`;
  const expiresAt = new Date(now.getTime() + CONNECT_STATE_TTL_MS).toISOString();
  await repo.saveState(hashOf(state), { siteId: s.site.id, userId: actor.id, redirectUri, createdAt: now.toISOString(), expiresAt });
  await repo.purgeStates(new Date(now.getTime() - 86_400_000).toISOString());
  const url = new URL(s.re.authorizeUrl);
  url.searchParams.set('client_id', s.re.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  return { url: url.toString(), expiresAt, redirectUri };
}

export interface ConnectOutcome {
  ok: boolean;
  message: string;
  /** The site's slug, when the callback named a known site. */
  site?: string;
}

/**
 * Blackbaud's redirect back: check the state, then exchange the code. Every failure is an outcome
 * with a message for the sync screen, never a thrown error (the browser shows our screen, not JSON).
 */
export async function finishConnect(ctx: SyncContext, siteParam: string, query: Record<string, unknown>): Promise<ConnectOutcome> {
  const text = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : '');
  let s: SiteSync;
  try {
    s = await siteForWebhook(ctx, siteParam);
  } catch {
    return { ok: false, message: 'This connection is for a site that does not exist or has no CRM sync' };
  }
  const fail = (message: string): ConnectOutcome => ({ ok: false, message, site: s.site.slug });
  const state = text('state');
  if (!state) return fail('Blackbaud came back without the connection\'s state: click Connect again');
  const repo = connectionRepo(ctx.db);
  const now = ctx.clock.now().toISOString();
  const { taken, found } = await repo.takeState(hashOf(state), now);
  if (!found) return fail('This connection link is not one of ours: click Connect again');
  if (!taken) return fail(found.usedAt ? 'This connection link was already used: click Connect again' : 'This connection link expired (10 minutes): click Connect again');
  if (taken.siteId !== s.site.id) return fail('This connection link was made for another site: click Connect again');
  const user = await findUser(ctx.db, taken.userId);
  if (!user || user.role !== 'admin') return fail('The admin who clicked Connect is no longer an admin');
  const error = text('error');
  if (error) {
    const why = text('error_description');
    return fail(error === 'access_denied' ? 'Access was not granted in Blackbaud (access_denied): nothing changed' : `Blackbaud answered ${error}${why ? `: ${why}` : ''}`);
  }
  const code = text('code');
  if (!code) return fail('Blackbaud came back without an authorisation code: click Connect again');
  try {
    const grant = await ctx.clients.raisersEdge(s).exchangeCode(code, taken.redirectUri);
    await repo.markConnected(s.site.id, taken.userId, now, grant.environmentName ?? grant.tenantName ?? null);
    ctx.log.info({ site: s.site.slug, environment: grant.environmentName }, 'Raiser\'s Edge connected');
    return { ok: true, message: `Raiser's Edge connected${grant.environmentName ? ` (${grant.environmentName})` : ''}`, site: s.site.slug };
  } catch (err) {
    // The CRM's own answer is in the message (answerError quotes its body): the admin sees why.
    ctx.log.warn({ site: s.site.slug, err: errorMessage(err) }, 'Raiser\'s Edge code exchange failed');
    return fail(`The code exchange failed: ${errorMessage(err)}`);
  }
}

export interface ConnectionStatus {
  /** A refresh token is stored and Blackbaud has not refused it. */
  connected: boolean;
  /** Blackbaud refused the refresh token: an admin must click Reconnect. */
  needsReconnect: boolean;
  reason: string | null;
  connectedAt: string | null;
  environmentName: string | null;
}

export async function connectionStatus(ctx: Pick<SyncContext, 'db'>, s: SiteSync): Promise<ConnectionStatus> {
  const row = await connectionRepo(ctx.db).get(s.site.id);
  const hasToken = Boolean(envValue(await readEnv(ctx.db, s.site.id), 'RE_REFRESH_TOKEN'));
  const needsReconnect = Boolean(row?.needsReconnect);
  return { connected: hasToken && !needsReconnect, needsReconnect, reason: needsReconnect ? row?.reason ?? null : null, connectedAt: row?.connectedAt ?? null, environmentName: row?.environmentName ?? null };
}
