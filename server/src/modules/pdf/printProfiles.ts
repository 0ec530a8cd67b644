// The printers' colour profiles: an admin uploads the ICC output profile a press or print provider
// prints with, for one site or for every site; a site names one (PRINT_OUTPUT_PROFILE, by id), the
// instance may name a default (config PRINT_OUTPUT_PROFILE), and outputIntentOf says which one a
// site's print files and press sheets carry. Profiles are never edited: a new one is a new upload,
// so a profile's bytes, and the files drawn with it, stay what they were.
import { Readable } from 'node:stream';
import { PRINT_OUTPUT_PROFILE, envReader, siteSettings, type EnvEntry } from '../../../../common/siteSettings';
import type { PrintProfile } from '../../../../common/api/printProfiles';
import type { Deps } from '../../deps';
import { HttpError } from '../../http/errors';
import { fieldError } from '../../http/fieldErrors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { assertAdmin, siteScope } from '../auth';
import { findSite, siteExists } from '../sites';
import { registerUpload, siteFolder, type FileStore } from '../uploads';
import { bundledOutputIntent, checkOutputProfile, outputIntentOfProfile, ProfileRefused, type OutputIntent } from './outputProfile';
import { printProfilesRepo, type StoredProfile } from './printProfilesRepo';

/** ICC output profiles are a few megabytes at most (a large press profile with big tables is ~4 MB). */
export const MAX_PROFILE_BYTES = 16 * 1024 * 1024;

const shown = ({ fileKey: _key, sha256: _sha, ...profile }: StoredProfile): PrintProfile => profile;

export function printProfilesService({ db, clock, config }: Deps, store: FileStore) {
  const repo = printProfilesRepo(db);
  // A profile's bytes never change (no edit), so each is read from the store once.
  const loaded = new Map<number, Promise<OutputIntent>>();

  /** Checks and keeps a profile; `siteId` absent: for every site. */
  async function upload(actor: Actor, file: { bytes: Buffer } | undefined, siteId: number | undefined): Promise<PrintProfile> {
    assertAdmin(actor, 'Only an admin can upload a print profile');
    if (!file) throw fieldError('file', 'is missing: choose the ICC profile (.icc or .icm) to upload');
    if (siteId !== undefined && !(await siteExists(db, siteId))) throw fieldError('siteId', `names no site (${siteId})`);
    let facts: ReturnType<typeof checkOutputProfile>;
    try {
      facts = checkOutputProfile(new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
    } catch (err) {
      if (err instanceof ProfileRefused) throw fieldError('file', err.message);
      throw err;
    }
    const createdAt = isoNow(clock);
    const fileKey = `${siteFolder(siteId)}/print-profiles/${facts.sha256.slice(0, 32)}.icc`;
    await store.put(fileKey, Readable.from(file.bytes), { contentType: 'application/vnd.iccprofile' });
    await registerUpload(db, { key: fileKey, contentType: 'application/vnd.iccprofile', size: file.bytes.length, userId: actor.id, siteId: siteId ?? null, createdAt });
    const saved = await repo.insert({ siteId: siteId ?? null, name: facts.name, colorSpace: facts.colorSpace, deviceClass: facts.deviceClass, version: facts.version, size: file.bytes.length, createdAt, fileKey, sha256: facts.sha256, uploadedBy: actor.id });
    return shown(saved);
  }

  /** The profiles a caller may see: an admin every one (or a site's and the instance's), a user their site's and the instance's. */
  async function list(actor: Actor, siteId?: number): Promise<PrintProfile[]> {
    return (await repo.list(siteScope(actor, siteId))).map(shown);
  }

  /** The profile a site may name: its own or an instance-wide one; undefined otherwise. */
  async function usableBy(siteId: number | null, id: number): Promise<StoredProfile | undefined> {
    const p = await repo.byId(id);
    return p && (p.siteId === null || p.siteId === siteId) ? p : undefined;
  }

  function intentOf(profile: StoredProfile): Promise<OutputIntent> {
    let intent = loaded.get(profile.id);
    if (!intent) {
      intent = (async () => {
        const bytes = await store.read(profile.fileKey);
        if (!bytes) throw new HttpError(503, `The print profile "${profile.name}" (${profile.id}) is missing from the file store: upload it again and choose the new one`);
        return outputIntentOfProfile(new Uint8Array(bytes), profile.name, profile.sha256);
      })().catch((err: unknown) => {
        loaded.delete(profile.id);
        throw err;
      });
      loaded.set(profile.id, intent);
    }
    return intent;
  }

  /**
   * The output intent of a site's print files and press sheets: the site's PRINT_OUTPUT_PROFILE,
   * else the instance's, else the bundled profile. A profile named but gone is refused (409) rather
   * than printed with other colours.
   */
  async function outputIntentOf(siteId: number | null): Promise<OutputIntent> {
    const site = siteId === null ? undefined : await findSite(db, siteId);
    const own = site ? siteSettings(site)[PRINT_OUTPUT_PROFILE] : null;
    const chosen = own ?? config.artwork.outputProfile ?? null;
    if (chosen === null) return bundledOutputIntent();
    const profile = await usableBy(siteId, chosen);
    if (!profile) {
      const where = own !== null ? `${site!.name}'s ${PRINT_OUTPUT_PROFILE}` : `the server's ${PRINT_OUTPUT_PROFILE}`;
      throw new HttpError(409, `The print profile ${chosen} named by ${where} does not exist or belongs to another site: choose one on Print profiles`);
    }
    return intentOf(profile);
  }

  /** Refuses a site's PRINT_OUTPUT_PROFILE naming no profile the site may use (the sites module asks before a save). */
  async function checkSiteSetting(site: { id: number } | undefined, env: EnvEntry[], previous: EnvEntry[]): Promise<void> {
    const value = (envReader(env)(PRINT_OUTPUT_PROFILE) ?? '').trim();
    if (!value || value === (envReader(previous)(PRINT_OUTPUT_PROFILE) ?? '').trim()) return;
    const id = siteSettings({ settings: { env } })[PRINT_OUTPUT_PROFILE];
    if (id === null) return; // the registry's own check has refused it
    if (!(await usableBy(site?.id ?? null, id))) throw fieldError('settings.env', `${PRINT_OUTPUT_PROFILE} ${id} names no print profile this site may use: upload it on Print profiles, for this site or for every site`);
  }

  return { upload, list, outputIntentOf, checkSiteSetting };
}

export type PrintProfilesService = ReturnType<typeof printProfilesService>;
