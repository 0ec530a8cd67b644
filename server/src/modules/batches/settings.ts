// A site's press sheets and automatic batching (its settings.env), read with the common rule.
// Unset or unusable values: the defaults (DEFAULT_IMPOSE_SETTINGS, automatic batching off).
import { autoBatchingOf, batchSettingsProblem, impositionSettingsOf, type AutoBatching, type ImposeSettings } from '../../../../common/api/batching';
import { fieldError } from '../../http/fieldErrors';
import { envValue, type EnvVar } from '../../lib/secrets';

export const impositionOf = (env: EnvVar[]): ImposeSettings => impositionSettingsOf((key) => envValue(env, key));

export const autoBatchingOfEnv = (env: EnvVar[]): AutoBatching => autoBatchingOf((key) => envValue(env, key));

/** Refuses a site save whose press sheets or batching settings are not usable, with the sentence the site form shows. */
export function checkBatchSettings(env: EnvVar[]): void {
  const problem = batchSettingsProblem((key) => envValue(env, key));
  if (problem) throw fieldError('settings.env', problem);
}
