// A site's ship-by settings (its settings.env), read and checked with the common rule
// (common/api/shipBy.ts). Unset or unusable values: the defaults.
import { shipBySettingsOf, shipBySettingsProblem, type ShipBySettings } from '../../../../common/api/shipBy';
import { fieldError } from '../../http/fieldErrors';
import { envValue, type EnvVar } from '../../lib/secrets';

export const shipBySettingsOfEnv = (env: EnvVar[]): ShipBySettings => shipBySettingsOf((key) => envValue(env, key));

/** Refuses a site save whose ship-by settings are not usable, with the sentence the site form shows. */
export function checkShipBySettings(env: EnvVar[]): void {
  const problem = shipBySettingsProblem((key) => envValue(env, key));
  if (problem) throw fieldError('settings.env', problem);
}
