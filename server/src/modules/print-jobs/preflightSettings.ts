// A site's preflight thresholds (its settings.env), read with the common rule: the resolution below
// which a photo is warned about, and below which the job is held. Unset: the common defaults.
import { ppiSettingsProblem as problemOf, ppiThresholdsOf } from '../../../../common/api/preflight';
import type { PpiThresholds } from '../../../../common/design-doc/resolution';
import { envValue, type EnvVar } from '../../lib/secrets';

export const ppiSettingsProblem = (env: EnvVar[]): string | undefined => problemOf((key) => envValue(env, key));

export const thresholdsOf = (env: EnvVar[]): PpiThresholds => ppiThresholdsOf((key) => envValue(env, key));
