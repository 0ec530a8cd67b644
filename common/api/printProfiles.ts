// The printers' colour profiles (ICC output profiles) as the API answers them: POST and GET
// /api/print-profiles. A site names one with its PRINT_OUTPUT_PROFILE setting (by id).
import type { RecordId } from './envelope';

export interface PrintProfile {
  id: number;
  /** The profile's own description (its ICC desc tag), e.g. "Coated FOGRA39 (ISO 12647-2:2004)". */
  name: string;
  /** 'CMYK': only CMYK output profiles are taken. */
  colorSpace: string;
  /** 'prtr': an output (printer) profile. */
  deviceClass: string;
  /** ICC major version (2 or 4). */
  version: number;
  /** The site it belongs to; null: every site may use it. */
  siteId: RecordId | null;
  size: number;
  createdAt: string;
}
