// Where the running server's files are: the TypeScript sources (tsx, vitest) or the build in
// dist/server (plain node). Every path the server derives from its own location comes from here,
// because in the build each entry is one bundle and import.meta.url names that bundle, not the
// module that reads it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Defined by scripts/build-server.mjs (esbuild `define`) as the build's folder, relative to the
// project root; never defined when the sources run.
declare const PRESSWORK_SERVER_DIST: string | undefined;

/** The build's folder (dist/server) when running built, null when running the TypeScript sources. */
const builtInto = typeof PRESSWORK_SERVER_DIST === 'string' ? PRESSWORK_SERVER_DIST : null;

/** The folder holding package.json above this code: the sources and dist/ both live under it. */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`Presswork cannot find its package.json above ${from}`);
  }
}

export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The built admin UI the server serves. */
export const adminDist = path.join(projectRoot, 'dist/admin');

/** True when this is the built server (no TypeScript at run time). */
export const runsBuilt = builtInto !== null;

/**
 * How to start a worker thread whose entry is `server/src/<name>.ts` (e.g. "modules/pdf/worker"):
 * built, its bundle `dist/server/<name>.js` directly; from the sources, through worker-boot.mjs,
 * which loads the TypeScript with tsx.
 */
export function workerStart(name: string): { file: URL; workerData: { entry?: string } } {
  if (builtInto !== null) {
    const file = path.join(projectRoot, builtInto, `${name}.js`);
    if (!fs.existsSync(file)) throw new Error(`The build has no worker ${name} (${file}): list it in WORKERS of scripts/build-server.mjs`);
    return { file: pathToFileURL(file), workerData: {} };
  }
  return {
    file: pathToFileURL(path.join(projectRoot, 'server/src/lib/worker-boot.mjs')),
    workerData: { entry: pathToFileURL(path.join(projectRoot, 'server/src', `${name}.ts`)).href },
  };
}
