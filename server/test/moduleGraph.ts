// Reads the import graph of server/src at module granularity, for the boundary test and docs.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = resolve(fileURLToPath(new URL('../src', import.meta.url)));
export const MODULES = join(SRC, 'modules');

const isTest = (f: string) => /\.test\.tsx?$/.test(f);

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(ts|tsx|mjs)$/.test(name) && !isTest(name)) out.push(p);
  }
  return out;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface Import { from: string; spec: string; target: string; typeOnly: boolean }

/** Every relative import of a non-test file under server/src, resolved to a path (without extension). */
export function importsOf(): Import[] {
  const out: Import[] = [];
  for (const file of walk(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      out.push({ from: file, spec, target: resolve(dirname(file), spec), typeOnly: /^(import|export)\s+type\s/.test(m[0]) });
    }
  }
  return out;
}

/** The module a path belongs to, or undefined outside server/src/modules. */
export function moduleOf(path: string): string | undefined {
  const rel = relative(MODULES, path);
  if (rel.startsWith('..') || rel === '') return undefined;
  return rel.split(sep)[0];
}

export const moduleNames = () => readdirSync(MODULES).filter((n) => statSync(join(MODULES, n)).isDirectory()).sort();

export const hasIndex = (mod: string) => existsSync(join(MODULES, mod, 'index.ts'));

/** Imports that reach into another module's files instead of its index. */
export function internalReaches(imports = importsOf()): Import[] {
  return imports.filter((i) => {
    const target = moduleOf(i.target);
    if (!target || moduleOf(i.from) === target) return false;
    return i.target !== join(MODULES, target) && i.target !== join(MODULES, target, 'index');
  });
}

/** Module → modules it imports (type-only imports count: they still couple the faces). */
export function moduleGraph(imports = importsOf()): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>(moduleNames().map((m) => [m, new Set<string>()]));
  for (const i of imports) {
    const a = moduleOf(i.from);
    const b = moduleOf(i.target);
    if (a && b && a !== b) g.get(a)!.add(b);
  }
  return g;
}

/** Strongly connected components with more than one module (Tarjan). */
export function cycles(g: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** One concrete path around a cycle, e.g. orders → fulfilment → orders, for a readable failure. */
export function cyclePath(g: Map<string, Set<string>>, scc: string[]): string[] {
  const inScc = new Set(scc);
  const start = scc[0];
  const seen = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of g.get(v) ?? []) {
      if (!inScc.has(w)) continue;
      if (w === start) {
        const path = [v];
        let p = v;
        while (p !== start) path.unshift((p = seen.get(p)!));
        return [...path, start];
      }
      if (!seen.has(w)) {
        seen.set(w, v);
        queue.push(w);
      }
    }
  }
  return scc;
}
