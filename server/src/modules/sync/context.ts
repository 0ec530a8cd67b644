// What every sync use case shares: the repos, the CRM/platform clients, the leases that keep runs
// single across instances, and the bookkeeping of this instance's background work.
import { EventEmitter } from 'node:events';
import type { Deps } from '../../deps';
import type { HttpSettings } from '../../integrations/crmHttp';
import { createLeases } from '../../lib/leases';
import { createInbox, type Inbox } from '../inbox';
import { findSite, findSiteBySlug, listSites } from '../sites';
import type { SiteReader } from './sites';
import type { FileKind } from './files';
import { folderDropFiles, type DropFiles } from './dropFiles';
import { syncRecords } from './records';
import { markDead } from './runs';
import { clientFactory } from './siteSettings';

export interface SyncServiceOptions {
  /** Injected HTTP plumbing (tests: a sleep that does not wait, a fixed random). */
  http?: Partial<HttpSettings>;
  /** Constituents per page asked of the CRM (default 500). */
  pageSize?: number;
  /** This instance's lease holder id (default host:pid:random). */
  holder?: string;
  /** Where CRM webhook deliveries are stored, claimed and retried (default: an inbox of its own). */
  inbox?: Inbox;
  /** Where the drop files are read (default: each site's drop folder on this machine). */
  dropFiles?: DropFiles;
  hooks?: {
    /** Called after a file row was applied and before its checkpoint is committed (tests simulate a crash here). */
    beforeCheckpoint?: (info: { siteId: number; kind: FileKind; name: string; row: number }) => void | Promise<void>;
  };
}

export function createSyncContext(deps: Deps, opts: SyncServiceOptions = {}) {
  const { db, clock, config, log, metrics } = deps;
  const records = syncRecords(db, clock);
  const inFlight = new Set<Promise<unknown>>();

  /** Keeps a background promise counted until it settles (idle() waits for it); its failure is the caller's to log. */
  function track<T>(p: Promise<T>): Promise<T> {
    const tracked = p.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    tracked.catch(() => {});
    return tracked;
  }

  /** Resolves when every background run and queued webhook of this instance has finished. */
  async function idle(): Promise<void> {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
  }

  return {
    ...deps,
    opts,
    dropFiles: opts.dropFiles ?? folderDropFiles,
    tz: config.sync.timezone,
    records,
    sites: { byId: (id: number) => findSite(db, id), bySlug: (slug: string) => findSiteBySlug(db, slug), list: (...args: Parameters<SiteReader['list']>) => listSites(db, ...args) } satisfies SiteReader,
    clients: clientFactory({ db, clock, config, http: opts.http ?? {} }),
    events: new EventEmitter(),
    leases: createLeases({ db, clock, holder: opts.holder, ttlSeconds: config.sync.leaseSeconds, onReaped: (row, error) => markDead({ records, clock, log, metrics }, row, error) }),
    inbox: opts.inbox ?? createInbox(deps),
    /** Webhook syncs waiting their turn, one chain per site. */
    siteQueues: new Map<number, Promise<unknown>>(),
    track,
    idle,
  };
}

export type SyncContext = ReturnType<typeof createSyncContext>;
