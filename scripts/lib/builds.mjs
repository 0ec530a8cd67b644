// Are the admin UI and server builds current, and build them when not: one owner for npm start,
// the browser tests and the benchmarks. A build is stale when a file or folder under its sources
// (a folder's time changes when a file is added, renamed or deleted) is newer than its output.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_DIST, SERVER_STAMP, buildServer } from '../build-server.mjs';

const root = path.resolve(import.meta.dirname, '../..');

export const BUILDS = {
  admin: {
    what: 'the admin UI',
    output: 'dist/admin/index.html',
    sources: ['admin'],
    tool: 'vite',
    build: () => {
      // A production bundle whoever asks: under vitest NODE_ENV is 'test', and vite would build a bundle
      // in which react-admin logs every refused call to the console.
      const r = spawnSync('npm', ['run', '--silent', 'build:admin'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
      if (r.status !== 0) throw new Error(`npm run build:admin failed (exit ${r.status ?? r.signal})`);
    },
  },
  server: {
    what: 'the server',
    output: SERVER_STAMP,
    // Tests are not built: editing one does not make the build stale.
    sources: ['server', 'common', 'migrations', 'seeds', 'package.json', 'scripts/build-server.mjs', 'scripts/lib/lazyPackages.mjs'],
    skip: (rel) => rel === 'server/test' || /\.test\.tsx?$/.test(rel),
    tool: 'esbuild',
    build: buildServer,
  },
};

function newest(rel, skip) {
  if (skip?.(rel)) return 0;
  const p = path.join(root, rel);
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = st.mtimeMs;
  for (const name of fs.readdirSync(p)) t = Math.max(t, newest(`${rel}/${name}`, skip));
  return t;
}

/** 'missing', 'stale' or 'current'. */
export function buildState(name) {
  const b = BUILDS[name];
  const out = path.join(root, b.output);
  if (!fs.existsSync(out)) return 'missing';
  const builtAt = fs.statSync(out).mtimeMs;
  return b.sources.some((s) => fs.existsSync(path.join(root, s)) && newest(s, b.skip) > builtAt) ? 'stale' : 'current';
}

/** The build tools are devDependencies: a production install (`npm ci --omit=dev`) has none. */
const toolInstalled = (name) => fs.existsSync(path.join(root, 'node_modules', BUILDS[name].tool, 'package.json'));

/**
 * Builds each of `names` that is missing or stale. Without its build tool, a stale build is used as
 * it is (with a warning) and a missing one is an error unless `optional` names it (the server
 * answers without its admin UI, saying how to build it).
 */
export async function ensureBuilt(names, { optional = [], log = console.log, warn = console.warn } = {}) {
  for (const name of names) {
    const state = buildState(name);
    if (state === 'current') continue;
    const b = BUILDS[name];
    if (!toolInstalled(name)) {
      const why = `${b.tool} is not installed (the dev dependencies were left out, e.g. npm ci --omit=dev)`;
      if (state === 'stale') warn(`Warning: ${b.what} in ${path.dirname(b.output)} is older than its sources and ${why}: running it as it is. Build on a machine with the dev dependencies (npm run build) and copy dist/ here, or install them (npm ci).`);
      else if (optional.includes(name)) warn(`Warning: ${b.what} is not built and ${why}: starting without it. Build it with npm run build where the dev dependencies are installed.`);
      else throw new Error(`${b.what} is not built (${b.output} is missing) and ${why}. Build it with npm run build where the dev dependencies are installed and copy dist/ here, or install them (npm ci).`);
      continue;
    }
    log(`Building ${b.what} (${state === 'missing' ? 'not built yet' : 'older than its sources'})…`);
    await b.build();
  }
}

/** The built file of a server entry point ("main", "cli/backup"), relative to the project root. */
export const serverEntryFile = (entry) => `${SERVER_DIST}/${entry}.js`;

/** What the current server build can run ("main", "cli/<name>"; from its stamp), or [] when it is not built. */
export function builtServerCommands() {
  const stamp = path.join(root, SERVER_STAMP);
  return fs.existsSync(stamp) ? JSON.parse(fs.readFileSync(stamp, 'utf8')).commands : [];
}
