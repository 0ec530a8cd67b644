// Sign-in throttling: too many failures for one email, or from one address, within a short window
// answer 429 until the window has passed. The window is short, so a real user is never locked out for long.
export interface ThrottleSettings {
  maxFailures: number;
  windowSeconds: number;
}

export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(private readonly settings: ThrottleSettings) {}

  private recent(key: string, now: number): number[] {
    const cutoff = now - this.settings.windowSeconds * 1000;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Seconds to wait before trying again, or 0 when the attempt may go ahead. */
  retryAfter(email: string, address: string, now: number): number {
    const checks: Array<[string, number]> = [
      [`email:${email}`, this.settings.maxFailures],
      [`ip:${address}`, this.settings.maxFailures * 4],
    ];
    let wait = 0;
    for (const [key, limit] of checks) {
      const list = this.recent(key, now);
      if (list.length >= limit) {
        const oldest = list[list.length - limit];
        wait = Math.max(wait, Math.ceil((oldest + this.settings.windowSeconds * 1000 - now) / 1000));
      }
    }
    return wait;
  }

  recordFailure(email: string, address: string, now: number): void {
    for (const key of [`email:${email}`, `ip:${address}`]) this.failures.set(key, [...this.recent(key, now), now]);
    if (this.failures.size > 100_000) this.failures.clear(); // bounded memory under a spray of addresses
  }

  recordSuccess(email: string): void {
    this.failures.delete(`email:${email}`);
  }
}
