// Modules meet only through their faces (index.ts), and no two modules need each other.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cyclePath, cycles, hasIndex, importsOf, internalReaches, moduleGraph, moduleNames, MODULES, SRC } from './moduleGraph';

const imports = importsOf();

const where = (file: string) => relative(join(SRC, '..', '..'), file);

describe('module boundaries', () => {
  it('finds the modules and their imports', () => {
    // Guards the parser: if it found nothing, every other check here would pass vacuously.
    expect(moduleNames().length).toBeGreaterThan(20);
    expect(imports.filter((i) => i.spec.startsWith('../sites')).length).toBeGreaterThan(5);
  });

  it('gives every module a face with named exports and a line saying what it owns', () => {
    const faceless = moduleNames().filter((m) => !hasIndex(m));
    expect(faceless, 'modules without an index.ts').toEqual([]);
    for (const m of moduleNames()) {
      const text = readFileSync(join(MODULES, m, 'index.ts'), 'utf8');
      expect(text, `${m}/index.ts opens with a comment`).toMatch(/^\/\/ \S/);
      expect(text, `${m}/index.ts re-exports by name`).not.toMatch(/export\s+\*/);
    }
  });

  it('reaches another module only through its index', () => {
    const reaches = internalReaches(imports).map((i) => `${where(i.from)} imports '${i.spec}'`);
    // Joined, so the failure lists every offending import in full.
    expect(reaches.join('\n'), "import these through the module's index instead").toBe('');
  });

  it('has no import cycle between modules', () => {
    const g = moduleGraph(imports);
    const named = cycles(g).map((scc) => `${cyclePath(g, scc).join(' → ')} (all of: ${scc.join(', ')})`);
    // A lower module needing a higher one takes a port when services.ts builds it (docs/architecture.md).
    expect(named.join('\n'), 'modules that import each other').toBe('');
  });

  it('names the cycle it finds', () => {
    const g = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    const [scc, ...more] = cycles(g);
    expect(more).toEqual([]);
    expect(scc).toEqual(['a', 'b', 'c']);
    expect(cyclePath(g, scc)).toEqual(['a', 'b', 'c', 'a']);
  });
});
