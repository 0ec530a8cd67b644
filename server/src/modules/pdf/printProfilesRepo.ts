// SQL of print_profiles: the printers' ICC output profiles (the files are in the file store).
import type { Db } from '../../db';
import type { PrintProfile } from '../../../../common/api/printProfiles';

interface ProfileRow {
  id: number;
  site_id: number | null;
  name: string;
  color_space: string;
  device_class: string;
  icc_version: number;
  file_key: string;
  size: number | string;
  sha256: string;
  uploaded_by_user_id: number | null;
  created_at: string;
}

/** A stored profile: what the API shows, and where its file is. */
export interface StoredProfile extends PrintProfile {
  fileKey: string;
  sha256: string;
}

const fromRow = (r: ProfileRow): StoredProfile => ({
  id: r.id,
  name: r.name,
  colorSpace: r.color_space,
  deviceClass: r.device_class,
  version: r.icc_version,
  siteId: r.site_id,
  size: Number(r.size),
  createdAt: r.created_at,
  fileKey: r.file_key,
  sha256: r.sha256,
});

export function printProfilesRepo(db: Db) {
  return {
    async insert(p: Omit<StoredProfile, 'id'> & { uploadedBy: number | null }): Promise<StoredProfile> {
      const [r] = await db('print_profiles')
        .insert({
          site_id: p.siteId,
          name: p.name,
          color_space: p.colorSpace,
          device_class: p.deviceClass,
          icc_version: p.version,
          file_key: p.fileKey,
          size: p.size,
          sha256: p.sha256,
          uploaded_by_user_id: p.uploadedBy,
          created_at: p.createdAt,
        })
        .returning('id');
      const id = typeof r === 'object' ? (r as { id: number }).id : (r as number);
      return (await this.byId(id))!;
    },
    async byId(id: number): Promise<StoredProfile | undefined> {
      const r = await db<ProfileRow>('print_profiles').where({ id }).first();
      return r ? fromRow(r) : undefined;
    },
    /** Every profile (undefined), or those a site may use: its own and the instance's. */
    async list(siteId: number | undefined): Promise<StoredProfile[]> {
      const q = db<ProfileRow>('print_profiles');
      if (siteId !== undefined) q.where((w) => w.where('site_id', siteId).orWhereNull('site_id'));
      return (await q.orderBy('id', 'asc')).map(fromRow);
    },
  };
}
