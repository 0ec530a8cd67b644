// A site's ship-by settings (its settings.env), read and checked with the common rule
// (common/api/shipBy.ts). Unset or unusable values: the defaults.
import { shipBySettingsOf, type ShipBySettings } from '../../../../common/api/shipBy';
import { envValue, type EnvVar } from '../../lib/secrets';

export const shipBySettingsOfEnv = (env: EnvVar[]): ShipBySettings => shipBySettingsOf((key) => envValue(env, key));
