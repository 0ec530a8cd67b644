import { DEFAULT_PPI_THRESHOLDS, type PpiThresholds } from '../design-doc/resolution';

// Preflight: what Presswork checks on a print job before it may print, and how a job that fails is
// held. The server (print-jobs/preflight) makes the findings; the Jobs screen, the order lines and
// the provider sends read them. Severity decides: an error holds the job, a warning is shown only.

export const PREFLIGHT_SEVERITIES = ['info', 'warning', 'error'] as const;
export type PreflightSeverity = (typeof PREFLIGHT_SEVERITIES)[number];

/** Every finding's code: tools and tests match on these, people read the message. */
export const PREFLIGHT_CODES = [
  /** Not the format's page count: a card's 4 pages (spec: 4 artwork pages), a mug's or a poster's one. */
  'page-count',
  /** The artwork has the trim's proportions but no bleed: placed at trim size, the bleed is white. */
  'no-bleed',
  /** The artwork's proportions are neither trim + bleed nor trim: it is placed inside the trim, not stretched. */
  'page-proportions',
  /** A photo (or a page image) has too few pixels for its printed size. */
  'low-resolution',
  /** Personalised text had to shrink below the smallest readable size. */
  'text-shrunk',
  /** Personalised text does not fit its box and was cut off. */
  'text-clipped',
  /** A personalisation property the design needs is missing from the order line: the sample was drawn. */
  'missing-property',
  /** A pregenerated PDF's pages or boxes do not match the product. */
  'pdf-page-count',
  'pdf-page-size',
  'pdf-boxes',
  /** A file the job prints from could not be read at all. */
  'unreadable',
  /** Text reaches outside the format's safe area (a slightly off cut may take it). */
  'outside-safe-area',
  /** Text in a mug wrap's seam area, where the wrap's two ends meet. */
  'seam-text',
] as const;
export type PreflightCode = (typeof PREFLIGHT_CODES)[number];

/** Where on the page a finding points, as fractions (0–1) of the page's trim box, from its top-left corner. */
export interface PreflightArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PreflightFinding {
  severity: PreflightSeverity;
  code: PreflightCode;
  /** A plain sentence: "Page 1 photo “Photo” is 142 ppi at its printed size — it will look soft". */
  message: string;
  /** The page as people count it (1 = first); null when the finding is about the whole file. */
  page: number | null;
  /** The layer the finding is about, when it is one: marked on the page thumbnail. */
  area?: PreflightArea;
}

/** An operator's "Approve anyway" of a held job: who and when. */
export interface PreflightApproval {
  byUserId: number | null;
  byName: string;
  at: string;
}

/** The preflight fields every print job carries (GET /api/print-jobs, /api/print-jobs/:id). */
export interface PreflightState {
  /** An error finding and no approval: not in the Jobs queue, never sent to the provider. */
  held: boolean;
  preflight: PreflightFinding[];
  /** Set by Approve anyway; cleared by a re-check. */
  preflightApproval: PreflightApproval | null;
  /** When the findings were made (null: never checked, e.g. a job older than preflight). */
  preflightCheckedAt: string | null;
}

/** The site settings of the resolution rule (common/design-doc/resolution.ts), in ppi. */
export const PREFLIGHT_SETTING_KEYS = { warning: 'PREFLIGHT_MIN_PPI_WARNING', error: 'PREFLIGHT_MIN_PPI_ERROR' } as const;

/** details.code of the 409 that refuses to send or print a held job. */
export const HELD_BY_PREFLIGHT_CODE = 'HELD_BY_PREFLIGHT';

/** A site setting's value by key (its settings.env), as the server or the site form reads it. */
export type SettingReader = (key: string) => string | undefined;

const WHOLE_PPI = /^\d{1,4}$/;

/** The site's thresholds; a value that is not usable (never saved so) counts as unset. */
export function ppiThresholdsOf(read: SettingReader): PpiThresholds {
  const value = (key: string, fallback: number) => {
    const v = (read(key) ?? '').trim();
    return WHOLE_PPI.test(v) && Number(v) >= 1 ? Number(v) : fallback;
  };
  return { warning: value(PREFLIGHT_SETTING_KEYS.warning, DEFAULT_PPI_THRESHOLDS.warning), error: value(PREFLIGHT_SETTING_KEYS.error, DEFAULT_PPI_THRESHOLDS.error) };
}

/** What is wrong with the two settings, as one sentence (undefined: they are usable). The server refuses a save with it; the site form shows it as typed. */
export function ppiSettingsProblem(read: SettingReader): string | undefined {
  for (const key of Object.values(PREFLIGHT_SETTING_KEYS)) {
    const v = (read(key) ?? '').trim();
    if (v !== '' && (!WHOLE_PPI.test(v) || Number(v) < 1)) return `${key}: "${v}" is not a whole number of ppi (e.g. ${key === PREFLIGHT_SETTING_KEYS.warning ? DEFAULT_PPI_THRESHOLDS.warning : DEFAULT_PPI_THRESHOLDS.error}).`;
  }
  const t = ppiThresholdsOf(read);
  if (t.error > t.warning) {
    return `${PREFLIGHT_SETTING_KEYS.error} (${t.error}) must not be above ${PREFLIGHT_SETTING_KEYS.warning} (${t.warning}): a photo is held below the first and warned about below the second.`;
  }
  return undefined;
}
