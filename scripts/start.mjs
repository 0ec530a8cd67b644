// npm start — node scripts/start.mjs [entry] [-- args]: runs the built dist/server/<entry>.js with
// plain node (entry "main", the server, by default; e.g. "cli/backup"), building first what is
// missing or older than its sources (the admin UI too for the server). Arguments after the entry
// (or after --) go to it; SIGINT, SIGTERM and SIGHUP are passed on; the exit code is the entry's.
// Where the build tools are not installed (npm ci --omit=dev), a stale build runs as it is, with a
// warning, and a missing one is refused: see scripts/lib/builds.mjs.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { builtServerCommands, ensureBuilt, serverEntryFile } from './lib/builds.mjs';

const root = path.resolve(import.meta.dirname, '..');

const argv = process.argv.slice(2);
const named = argv.length > 0 && argv[0] !== '--';
const entry = named ? argv[0] : 'main';
const rest = named ? argv.slice(1) : argv;
const args = rest[0] === '--' ? rest.slice(1) : rest;

try {
  await ensureBuilt(entry === 'main' ? ['admin', 'server'] : ['server'], { optional: ['admin'] });
} catch (err) {
  console.error(`Presswork cannot start: ${err.message}`);
  process.exit(1);
}
const commands = builtServerCommands();
if (!commands.includes(entry)) {
  console.error(`Presswork has no entry point "${entry}": the build has ${commands.join(', ')} (server/src/cli/<name>.ts is built as cli/<name>).`);
  process.exit(2);
}

const child = spawn(process.execPath, [serverEntryFile(entry), ...args], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
