// A site's preflight thresholds (its settings.env): the resolution below which a photo is warned
// about, and below which the job is held. Unset: the common defaults.
import { PREFLIGHT_SETTING_KEYS } from '../../../../common/api/preflight';
import { DEFAULT_PPI_THRESHOLDS, type PpiThresholds } from '../../../../common/design-doc/resolution';
import { fieldError } from '../../http/fieldErrors';
import { envValue, type EnvVar } from '../../lib/secrets';

const WHOLE = /^\d{1,4}$/;

/** What is wrong with the two settings, as one sentence (undefined: they are usable). */
export function ppiSettingsProblem(env: EnvVar[]): string | undefined {
  const read = (key: string) => (envValue(env, key) ?? '').trim();
  for (const key of Object.values(PREFLIGHT_SETTING_KEYS)) {
    const v = read(key);
    if (v !== '' && (!WHOLE.test(v) || Number(v) < 1)) return `${key}: "${v}" is not a whole number of ppi (e.g. ${key === PREFLIGHT_SETTING_KEYS.warning ? DEFAULT_PPI_THRESHOLDS.warning : DEFAULT_PPI_THRESHOLDS.error}).`;
  }
  const t = thresholdsOf(env);
  if (t.error > t.warning) {
    return `${PREFLIGHT_SETTING_KEYS.error} (${t.error}) must not be above ${PREFLIGHT_SETTING_KEYS.warning} (${t.warning}): a photo is held below the first and warned about below the second.`;
  }
  return undefined;
}

/** The site's thresholds; a value that is not usable (never saved so) counts as unset. */
export function thresholdsOf(env: EnvVar[]): PpiThresholds {
  const read = (key: string, fallback: number) => {
    const v = (envValue(env, key) ?? '').trim();
    return WHOLE.test(v) && Number(v) >= 1 ? Number(v) : fallback;
  };
  return { warning: read(PREFLIGHT_SETTING_KEYS.warning, DEFAULT_PPI_THRESHOLDS.warning), error: read(PREFLIGHT_SETTING_KEYS.error, DEFAULT_PPI_THRESHOLDS.error) };
}

/** Refuses a site save whose thresholds are not whole numbers, or whose error level is above its warning level. */
export function checkPreflightSettings(env: EnvVar[]): void {
  const problem = ppiSettingsProblem(env);
  if (problem) throw fieldError('settings.env', problem);
}
