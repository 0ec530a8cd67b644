// A least-recently-used map of byte arrays, bounded by their total size.
export class LruBytes {
  private readonly map = new Map<string, Uint8Array>();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.total;
  }

  get(key: string): Uint8Array | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key: string, value: Uint8Array): void {
    const old = this.map.get(key);
    if (old) {
      this.total -= old.byteLength;
      this.map.delete(key);
    }
    // A value larger than a quarter of the budget is not kept (it would evict everything else).
    if (value.byteLength > this.maxBytes / 4) return;
    this.map.set(key, value);
    this.total += value.byteLength;
    for (const [k, v] of this.map) {
      if (this.total <= this.maxBytes) break;
      this.map.delete(k);
      this.total -= v.byteLength;
    }
  }
}
