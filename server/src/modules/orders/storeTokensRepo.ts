// The SQL of app-connected stores (tables store_app_tokens and store_install_states, written only
// here): the tokens a grant gave and the store's health, the pending OAuth `state`s, and the lock
// that keeps token renewals of one store to one at a time across instances.
import type { Knex } from 'knex';
import { isPostgres, type Db } from '../../db';

export interface StoredTokens {
  siteId: number;
  auth: string;
  clientId: string | null;
  shopDomain: string | null;
  accessToken: string | null;
  accessExpiresAt: string | null;
  refreshToken: string | null;
  refreshExpiresAt: string | null;
  issuedAt: string | null;
  scopes: string[];
  shopName: string | null;
  needsReconnect: boolean;
  reason: string | null;
  markedAt: string | null;
  connectedAt: string | null;
  connectedBy: number | null;
  updatedAt: string;
}

interface Row {
  site_id: number;
  auth: string;
  client_id: string | null;
  shop_domain: string | null;
  access_token: string | null;
  access_expires_at: string | null;
  refresh_token: string | null;
  refresh_expires_at: string | null;
  issued_at: string | null;
  scopes: string | null;
  shop_name: string | null;
  needs_reconnect: boolean | number;
  reason: string | null;
  marked_at: string | null;
  connected_at: string | null;
  connected_by: number | null;
  updated_at: string;
}

const fromRow = (r: Row): StoredTokens => ({
  siteId: Number(r.site_id),
  auth: r.auth,
  clientId: r.client_id,
  shopDomain: r.shop_domain,
  accessToken: r.access_token,
  accessExpiresAt: r.access_expires_at,
  refreshToken: r.refresh_token,
  refreshExpiresAt: r.refresh_expires_at,
  issuedAt: r.issued_at,
  scopes: r.scopes ? r.scopes.split(',').filter(Boolean) : [],
  shopName: r.shop_name,
  needsReconnect: Boolean(r.needs_reconnect),
  reason: r.reason,
  markedAt: r.marked_at,
  connectedAt: r.connected_at,
  connectedBy: r.connected_by === null || r.connected_by === undefined ? null : Number(r.connected_by),
  updatedAt: r.updated_at,
});

/** A grant's result, stored in one statement: the access token and its refresh token never apart. */
export interface GrantToStore {
  auth: string;
  clientId: string;
  shopDomain: string;
  accessToken: string;
  accessExpiresAt: string | null;
  refreshToken: string | null;
  refreshExpiresAt: string | null;
  issuedAt: string;
  scopes: string[];
}

export interface InstallState {
  siteId: number;
  userId: number;
  shopDomain: string;
  redirectUri: string;
  expiresAt: string;
  usedAt: string | null;
}

/** The advisory-lock namespace of token renewals (the second key is the site id). */
const TOKEN_LOCK_NAMESPACE = 7_140_028;

export function storeTokensRepo(db: Db | Knex.Transaction) {
  const table = () => db<Row>('store_app_tokens');
  return {
    async of(siteId: number): Promise<StoredTokens | undefined> {
      const r = await table().where({ site_id: siteId }).first();
      return r ? fromRow(r) : undefined;
    },

    async ofSites(siteIds: number[]): Promise<Map<number, StoredTokens>> {
      if (!siteIds.length) return new Map();
      const rows = await table().whereIn('site_id', siteIds);
      return new Map(rows.map((r) => [Number(r.site_id), fromRow(r)]));
    },

    /** A new grant: the pair (and what it is for) replaces the old one, and the store is healthy again. */
    async saveGrant(siteId: number, g: GrantToStore, at: string, connected?: { by: number | null }): Promise<void> {
      const row = {
        auth: g.auth,
        client_id: g.clientId,
        shop_domain: g.shopDomain,
        access_token: g.accessToken,
        access_expires_at: g.accessExpiresAt,
        refresh_token: g.refreshToken,
        refresh_expires_at: g.refreshExpiresAt,
        issued_at: g.issuedAt,
        scopes: g.scopes.join(','),
        needs_reconnect: false,
        reason: null,
        marked_at: null,
        updated_at: at,
        ...(connected ? { connected_at: at, connected_by: connected.by } : {}),
      };
      await db('store_app_tokens')
        .insert({ site_id: siteId, ...row })
        .onConflict('site_id')
        .merge(Object.keys(row));
    },

    /** What Check connection learnt: the shop's name and the scopes its token really has. */
    async saveCheck(siteId: number, auth: string, c: { shopName: string; scopes: string[] }, at: string): Promise<void> {
      const row = { auth, shop_name: c.shopName.slice(0, 255), scopes: c.scopes.join(','), updated_at: at };
      await db('store_app_tokens')
        .insert({ site_id: siteId, needs_reconnect: false, ...row })
        .onConflict('site_id')
        .merge(Object.keys(row));
    },

    /** Shopify refused the grant: no call is made until an admin reconnects the store. */
    async markNeedsReconnect(siteId: number, auth: string, reason: string, at: string): Promise<void> {
      const row = { needs_reconnect: true, reason: reason.slice(0, 2000), marked_at: at, updated_at: at };
      await db('store_app_tokens')
        .insert({ site_id: siteId, auth, ...row })
        .onConflict('site_id')
        .merge(Object.keys(row));
    },

    /** The app was uninstalled: the tokens are dead; the store says why it needs reconnecting. */
    async forgetTokens(siteId: number, reason: string, at: string): Promise<void> {
      await table()
        .where({ site_id: siteId })
        .update({ access_token: null, access_expires_at: null, refresh_token: null, refresh_expires_at: null, needs_reconnect: true, reason: reason.slice(0, 2000), marked_at: at, updated_at: at });
    },

    /**
     * Runs `fn` while this site's token renewal is ours. PostgreSQL: a transaction-scoped advisory
     * lock, so another instance renewing the same store waits, then finds the new token. SQLite has
     * one process (one connection): its callers keep renewals to one at a time in memory, and a
     * transaction held over an HTTP call would stop every other query of the process.
     */
    async withRenewalLock<T>(siteId: number, fn: (q: Db | Knex.Transaction) => Promise<T>): Promise<T> {
      if (!isPostgres(db as Db)) return fn(db);
      return (db as Db).transaction(async (trx) => {
        // The holder calls Shopify (up to its time limit): the other waits longer than a usual lock.
        await trx.raw("set local lock_timeout = '40s'");
        await trx.raw('select pg_advisory_xact_lock(?, ?)', [TOKEN_LOCK_NAMESPACE, siteId]);
        return fn(trx);
      });
    },

    async saveInstallState(hash: string, s: { siteId: number; userId: number; shopDomain: string; redirectUri: string; createdAt: string; expiresAt: string }): Promise<void> {
      await db('store_install_states').insert({ state_hash: hash, site_id: s.siteId, user_id: s.userId, shop_domain: s.shopDomain, redirect_uri: s.redirectUri, created_at: s.createdAt, expires_at: s.expiresAt });
    },

    async installState(hash: string): Promise<InstallState | undefined> {
      const r = await db('store_install_states').where({ state_hash: hash }).first();
      return r
        ? { siteId: Number(r.site_id), userId: Number(r.user_id), shopDomain: String(r.shop_domain), redirectUri: String(r.redirect_uri), expiresAt: String(r.expires_at), usedAt: r.used_at ?? null }
        : undefined;
    },

    /** Marks the state used in the statement that checks it is unused and unexpired: it works once, even with two callbacks at once. */
    async takeInstallState(hash: string, now: string): Promise<boolean> {
      const n = await db('store_install_states').where({ state_hash: hash }).whereNull('used_at').where('expires_at', '>', now).update({ used_at: now });
      return Number(n) === 1;
    },

    /** States that can no longer be used are of no interest after a day. */
    purgeInstallStates: (before: string) => db('store_install_states').where('expires_at', '<', before).delete(),
  };
}

export type StoreTokensRepo = ReturnType<typeof storeTokensRepo>;
