// settings.env values whose key looks secret are masked on the way out and kept when saved back masked.
export const MASK = '********';

export interface EnvVar {
  key: string;
  value: string;
}

export const isSecretKey = (key: string) => /SECRET|KEY|TOKEN|PASSWORD/i.test(key);

export function maskEnv(env: EnvVar[]): EnvVar[] {
  return env.map((v) => (isSecretKey(v.key) && v.value !== '' ? { key: v.key, value: MASK } : v));
}

/** The env to store: a masked value sent back means "unchanged"; a masked value for a new key is refused by the caller. */
export function mergeMaskedEnv(incoming: EnvVar[], stored: EnvVar[]): { env: EnvVar[]; unknownMasked: string[] } {
  const previous = new Map(stored.map((v) => [v.key, v.value]));
  const unknownMasked: string[] = [];
  const env = incoming.map((v) => {
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
