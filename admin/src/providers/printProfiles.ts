// The printers' colour profiles (GET/POST /api/print-profiles): the list, and an upload (admin).
import type { PrintProfile } from '../../../common/api/printProfiles';
import { api } from './api';

export const PRINT_PROFILES = '/api/print-profiles';

/** Every profile (admin), or those a site may use: its own and the ones for every site. */
export const listPrintProfiles = (siteId?: number | string, signal?: AbortSignal) =>
  api<PrintProfile[]>(siteId !== undefined && siteId !== '' ? `${PRINT_PROFILES}?siteId=${encodeURIComponent(String(siteId))}` : PRINT_PROFILES, { signal });

/** Uploads an ICC profile for one site, or ('' ) for every site; the server checks it is a CMYK output profile. */
export function uploadPrintProfile(file: File, siteId: string): Promise<PrintProfile> {
  const form = new FormData();
  form.append('file', file);
  if (siteId) form.append('siteId', siteId);
  return api<PrintProfile>(PRINT_PROFILES, { method: 'POST', body: form });
}
