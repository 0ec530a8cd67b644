// The SQL of the Raiser's Edge connection: pending authorisation `state`s and each site's
// connection health (re_connect_states, re_connections).
import type { Db } from '../../db';

export interface ConnectState {
  siteId: number;
  userId: number;
  redirectUri: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface ConnectionRow {
  needsReconnect: boolean;
  reason: string | null;
  markedAt: string | null;
  connectedAt: string | null;
  connectedBy: number | null;
  environmentName: string | null;
}

export function connectionRepo(db: Db) {
  return {
    async saveState(hash: string, s: { siteId: number; userId: number; redirectUri: string; createdAt: string; expiresAt: string }): Promise<void> {
      await db('re_connect_states').insert({ state_hash: hash, site_id: s.siteId, user_id: s.userId, redirect_uri: s.redirectUri, created_at: s.createdAt, expires_at: s.expiresAt });
    },

    /** The state, marked used in the same statement that checks it is unused and unexpired: it works once, even with two callbacks at once. */
    async takeState(hash: string, now: string): Promise<{ taken: ConnectState | undefined; found: ConnectState | undefined }> {
      const taken = await db('re_connect_states').where({ state_hash: hash }).whereNull('used_at').where('expires_at', '>', now).update({ used_at: now });
      const row = await db('re_connect_states').where({ state_hash: hash }).first();
      const state = row ? { siteId: Number(row.site_id), userId: Number(row.user_id), redirectUri: String(row.redirect_uri), expiresAt: String(row.expires_at), usedAt: row.used_at ?? null } : undefined;
      return { taken: taken ? state : undefined, found: state };
    },

    /** States that can no longer be used are of no interest after a day. */
    purgeStates: (before: string) => db('re_connect_states').where('expires_at', '<', before).delete(),

    async get(siteId: number): Promise<ConnectionRow | undefined> {
      const row = await db('re_connections').where({ site_id: siteId }).first();
      if (!row) return undefined;
      return {
        needsReconnect: Boolean(row.needs_reconnect),
        reason: row.reason ?? null,
        markedAt: row.marked_at ?? null,
        connectedAt: row.connected_at ?? null,
        connectedBy: row.connected_by === null || row.connected_by === undefined ? null : Number(row.connected_by),
        environmentName: row.environment_name ?? null,
      };
    },

    async markRevoked(siteId: number, reason: string, at: string): Promise<void> {
      await db('re_connections')
        .insert({ site_id: siteId, needs_reconnect: true, reason: reason.slice(0, 2000), marked_at: at })
        .onConflict('site_id')
        .merge(['needs_reconnect', 'reason', 'marked_at']);
    },

    async markConnected(siteId: number, userId: number, at: string, environmentName: string | null): Promise<void> {
      await db('re_connections')
        .insert({ site_id: siteId, needs_reconnect: false, reason: null, marked_at: at, connected_at: at, connected_by: userId, environment_name: environmentName?.slice(0, 300) ?? null })
        .onConflict('site_id')
        .merge(['needs_reconnect', 'reason', 'marked_at', 'connected_at', 'connected_by', 'environment_name']);
    },
  };
}

export type ConnectionRepo = ReturnType<typeof connectionRepo>;
