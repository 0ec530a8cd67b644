// The stand-ins the server build puts in place of its heavy packages (scripts/lib/lazyPackages.mjs):
// the package loads on the first use of an export, not before, and answers as the package itself;
// one that cannot load fails that use with an error naming it and what it is for.
import { LAZY_REQUIRE, standInSource } from '../../scripts/lib/lazyPackages.mjs';
import { describe, expect, it } from 'vitest';

/** Runs a stand-in's source as the bundle would, with `load` as its require. */
function standIn(name: string, real: unknown, load: (name: string) => unknown): Record<string, unknown> & ((...args: unknown[]) => unknown) {
  const module = { exports: undefined as unknown };
  new Function('module', LAZY_REQUIRE, standInSource(name, 'the test', real))(module, load);
  return module.exports as Record<string, unknown> & ((...args: unknown[]) => unknown);
}

describe('a lazily loaded package', () => {
  it('is required on the first use of an export, once, and answers as the package', () => {
    class Doc {
      static create() {
        return new Doc();
      }
    }
    const real = { Doc, rgb: (r: number) => ({ r }), VERSION: '1.0' };
    const loads: string[] = [];
    const mod = standIn('pdf-lib', real, (n) => (loads.push(n), real));
    expect(loads).toEqual([]);
    expect(Object.keys(mod).sort()).toEqual(['Doc', 'VERSION', 'rgb']);
    expect(loads).toEqual([]);
    expect((mod.Doc as typeof Doc).create()).toBeInstanceOf(Doc);
    expect((mod.rgb as (r: number) => unknown)(1)).toEqual({ r: 1 });
    expect(mod.VERSION).toBe('1.0');
    expect(loads).toEqual(['pdf-lib']);
  });

  it('that is a function is called (and constructed) as the package, with its own properties', () => {
    const real = Object.assign(function sharp(this: unknown, input: string) {
      return { input, constructed: new.target !== undefined };
    }, { cache: (on: boolean) => on });
    const mod = standIn('sharp', real, () => real);
    expect(typeof mod).toBe('function');
    expect(mod('a.png')).toEqual({ input: 'a.png', constructed: false });
    expect(new (mod as unknown as new (s: string) => unknown)('b.png')).toEqual({ input: 'b.png', constructed: true });
    expect((mod.cache as (on: boolean) => boolean)(false)).toBe(false);
  });

  it('that cannot load fails its first use with an error naming it and what it is for', () => {
    const mod = standIn('sharp', { format: {} }, () => {
      throw new Error("Cannot find module 'sharp'");
    });
    expect(() => mod.format).toThrow("Presswork could not load the package sharp (needed for the test): Cannot find module 'sharp'");
  });
});
