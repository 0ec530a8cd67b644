// npm run build:server — the server to JavaScript in dist/server, so it runs on plain node.
// Each entry point becomes one bundle of our code (node_modules stay outside: native modules load
// from there) with a source map, beside a two-line launcher named after the entry that turns source
// maps on before the bundle loads, so stack traces name .ts lines with plain `node dist/server/main.js`.
// dist/server mirrors server/src: server/src/cli/backup.ts → dist/server/cli/backup.js.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LAZY_PACKAGES, lazyPackagesPlugin, lazyRequireBanner } from './lib/lazyPackages.mjs';

const root = path.resolve(import.meta.dirname, '..');
/** Relative to the project root; the built code learns it too (server/src/lib/runtime.ts). */
export const SERVER_DIST = 'dist/server';
/** Written last by a successful build; its mtime is when the build read its sources. */
export const SERVER_STAMP = `${SERVER_DIST}/build.json`;

/** Worker threads: every `entry` a thread pool names (server/src/lib/runtime.ts starts them from here when built). */
const WORKERS = ['modules/pdf/worker', 'modules/render/worker'];

/** What `node dist/server/<name>.js` runs, under server/src without extension: the server and every command-line tool. */
function commands() {
  const cliDir = path.join(root, 'server/src/cli');
  const cli = fs.existsSync(cliDir)
    ? fs
        .readdirSync(cliDir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
        .map((f) => `cli/${f.slice(0, -3)}`)
    : [];
  return ['main', ...cli.sort()];
}

const launcher = (bundle) => `// Built by scripts/build-server.mjs: source maps on before the bundle loads, then the bundle.
import module from 'node:module';
if (module.setSourceMapsSupport) module.setSourceMapsSupport(true);
else process.setSourceMapsEnabled(true);
await import('./${bundle}');
`;

/** Packages the bundles import (or load on first use) that `npm ci --omit=dev` would not install. */
function devOnlyImports(metafiles) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const missing = new Set();
  const imported = [...Object.keys(LAZY_PACKAGES)];
  for (const metafile of metafiles) {
    for (const output of Object.values(metafile.outputs)) {
      for (const imp of output.imports) if (imp.external && !imp.path.startsWith('node:') && !imp.path.startsWith('.')) imported.push(imp.path);
    }
  }
  for (const p of imported) {
    const name = p.startsWith('@') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0];
    if (!pkg.dependencies?.[name] && !builtinModules.includes(name)) missing.add(name);
  }
  return [...missing];
}

export async function buildServer() {
  const { build, stop } = await import('esbuild');
  const readAt = new Date();
  const runnable = commands();
  const entries = [...runnable, ...WORKERS];
  // Built beside dist/server and swapped in, so a failed build leaves the previous one runnable.
  const tmp = path.join(root, `${SERVER_DIST}.tmp-${process.pid}-${Date.now()}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  try {
    const options = {
      absWorkingDir: root,
      outdir: tmp,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22',
      sourcemap: true,
      sourcesContent: false,
      metafile: true,
      define: { PRESSWORK_SERVER_DIST: JSON.stringify(SERVER_DIST) },
      logLevel: 'warning',
    };
    const bundle = (names) => names.map((e) => ({ in: `server/src/${e}.ts`, out: `${e}.bundle` }));
    // The server and the tools load the heavy packages on first use (scripts/lib/lazyPackages.mjs):
    // a start needs none of them. A worker thread is started to use them, so it loads them at once.
    const results = await Promise.all([
      build({ ...options, entryPoints: bundle(runnable), banner: { js: lazyRequireBanner }, plugins: [lazyPackagesPlugin(root)] }),
      build({ ...options, entryPoints: bundle(WORKERS) }),
    ]);
    const devOnly = devOnlyImports(results.map((r) => r.metafile));
    if (devOnly.length) throw new Error(`the server imports ${devOnly.join(', ')}, not in package.json "dependencies" (a production install would not have them)`);
    for (const e of entries) fs.writeFileSync(path.join(tmp, `${e}.js`), launcher(`${path.basename(e)}.bundle.js`));
    const stamp = path.join(tmp, path.relative(SERVER_DIST, SERVER_STAMP));
    fs.writeFileSync(stamp, `${JSON.stringify({ commands: runnable, workers: WORKERS }, null, 2)}\n`);
    fs.utimesSync(stamp, readAt, readAt);
    fs.rmSync(path.join(root, SERVER_DIST), { recursive: true, force: true });
    fs.renameSync(tmp, path.join(root, SERVER_DIST));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    // esbuild's service process would otherwise live on beside npm start's server.
    await stop();
  }
  return entries;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t = performance.now();
  try {
    const entries = await buildServer();
    console.log(`Built the server into ${SERVER_DIST}/ (${entries.join(', ')}) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  } catch (err) {
    console.error(`The server build failed: ${err.message}`);
    process.exit(1);
  }
}
