// Sites (tenants) and their users (spec §3).
import type { Id, RecordId } from './envelope';

export type Role = 'admin' | 'user';

/** A user as the API shows it (login's publicInfo, GET /api/users/me, the users of a site). */
export interface User {
  id: RecordId;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  siteId: RecordId;
  createdAt: string;
}

/** What POST /api/users/upsert takes; a password only when it changes. */
export interface UpsertUserInput {
  id?: Id;
  firstName: string;
  lastName: string;
  email: string;
  password?: string;
  role: Role;
  siteId: Id;
}

/** Answer of POST /api/users/login. */
export interface LoginAnswer {
  token: string;
  publicInfo: User;
}

export interface EnvVariable {
  key: string;
  value: string;
}

/** A site as the admin screens see it: secret variables masked. */
export interface Site {
  id: RecordId;
  name: string;
  slug: string;
  logo: string | null;
  theme: { mainColor: string; [k: string]: unknown };
  settings: { env: EnvVariable[]; [k: string]: unknown };
  createdAt: string;
}

/** What any visitor may know of a site (GET /api/sites/info, in data.data): enough to brand the sign-in page. */
export interface SiteInfo {
  id: RecordId;
  name: string;
  slug: string;
  logo: string | null;
  theme: { mainColor: string };
  /** What the site has set up: `sync` = the CRM ↔ email-platform sync (RE and Adestra settings). */
  features: { sync: boolean };
}

/** Answer of a file PUT to a presigned upload URL. */
export interface UploadAnswer {
  key: string;
  url: string;
}
