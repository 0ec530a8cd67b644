// A site's press sheets and automatic batching (its settings.env), read with the common rule (checked on save by the settings registry).
// Unset or unusable values: the defaults (DEFAULT_IMPOSE_SETTINGS, automatic batching off).
import { autoBatchingOf, impositionSettingsOf, type AutoBatching, type ImposeSettings } from '../../../../common/api/batching';
import { envValue, type EnvVar } from '../../lib/secrets';

export const impositionOf = (env: EnvVar[]): ImposeSettings => impositionSettingsOf((key) => envValue(env, key));

export const autoBatchingOfEnv = (env: EnvVar[]): AutoBatching => autoBatchingOf((key) => envValue(env, key));
