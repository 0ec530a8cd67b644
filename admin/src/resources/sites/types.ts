export interface EnvVariable {
  key: string;
  value: string;
}

export interface SiteRecord {
  id: number | string;
  name: string;
  slug: string;
  logo?: string | null;
  theme?: { mainColor?: string | null } | null;
  settings?: { env?: EnvVariable[] | null } | null;
  createdAt?: string;
}
