// The one place settings.env is masked on the way out (secrets as the settings registry names them,
// a password inside a URL) and kept when saved back masked.
import { isSecretSetting } from '../../../common/siteSettings';

export const MASK = '********';

export interface EnvVar {
  key: string;
  value: string;
}

export const isSecretKey = isSecretSetting;

/** A URL with a password in it (smtps://user:password@host:465): the password, where it sits, and the URL with it masked. */
function urlPassword(value: string): { password: string; masked: string } | undefined {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^:@/\s]*:)([^@/\s]+)(@.*)$/i.exec(value);
  return m ? { password: m[2], masked: `${m[1]}${MASK}${m[3]}` } : undefined;
}

export function maskEnv(env: EnvVar[]): EnvVar[] {
  return env.map((v) => {
    if (v.value === '') return v;
    if (isSecretKey(v.key)) return { key: v.key, value: MASK };
    // A password inside a URL (SMTP_URL) is a secret too; the rest of the URL stays readable.
    const inUrl = urlPassword(v.value);
    return inUrl ? { key: v.key, value: inUrl.masked } : v;
  });
}

/** The env to store: a masked value sent back means "unchanged"; a masked value for a new key is refused by the caller. */
export function mergeMaskedEnv(incoming: EnvVar[], stored: EnvVar[]): { env: EnvVar[]; unknownMasked: string[] } {
  const previous = new Map(stored.map((v) => [v.key, v.value]));
  const unknownMasked: string[] = [];
  const env = incoming.map((v) => {
    const inUrl = urlPassword(v.value);
    if (inUrl?.password === MASK) {
      // The URL came back with its password masked: the stored password, if the rest is unchanged.
      const old = previous.get(v.key);
      const stored = old === undefined ? undefined : urlPassword(old);
      if (!stored || stored.masked !== v.value) {
        unknownMasked.push(v.key);
        return v;
      }
      return { key: v.key, value: old! };
    }
    if (v.value !== MASK) return v;
    const old = previous.get(v.key);
    if (old === undefined) {
      unknownMasked.push(v.key);
      return v;
    }
    return { key: v.key, value: old };
  });
  return { env, unknownMasked };
}

export function envValue(env: EnvVar[], key: string): string | undefined {
  return env.find((v) => v.key === key)?.value;
}
