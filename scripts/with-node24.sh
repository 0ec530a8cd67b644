#!/usr/bin/env bash
# Runs a command on Node 24, e.g. `scripts/with-node24.sh npm test`, from a checkout installed
# with the machine's Node (npm ci). Node 24 comes from scripts/node24.sh. better-sqlite3 is
# compiled for one Node ABI, so a build for Node 24 (made once, cached beside Node 24) takes the
# place of node_modules' own while the command runs, and the machine's build is put back after,
# even when the command fails or is interrupted. Don't run tests on the machine's Node in this
# checkout meanwhile. sharp, @napi-rs/canvas and esbuild use Node-API: nothing to rebuild.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -gt 0 ] || { echo "usage: scripts/with-node24.sh <command> [args…]" >&2; exit 2; }

node24="$("$root/scripts/node24.sh")"
# better-sqlite3 12 derives from node::ObjectWrap, whose header in Node 24.19 and later makes an
# addon compiled against it abort when V8 collects a statement (nodejs/node#65446, open): compile
# it against the 24.18.1 headers, as its published Node 24 binaries are, and it runs on any 24.x.
headers_version="${NODE24_HEADERS_VERSION:-24.18.1}"
headers="$(dirname "$(dirname "$("$root/scripts/node24.sh" "$headers_version")")")"

sqlite="$root/node_modules/better-sqlite3"
[ -f "$sqlite/package.json" ] || { echo "scripts/with-node24.sh: no node_modules/better-sqlite3: run npm ci first" >&2; exit 1; }
sqlite_version="$("$node24" -p "require('$sqlite/package.json').version")"
abi="$("$node24" -p process.versions.modules)"
built="$(dirname "$(dirname "$node24")")/better-sqlite3-$sqlite_version-abi$abi-headers$headers_version.node"

if [ ! -f "$built" ]; then
  echo "Compiling better-sqlite3 $sqlite_version for Node 24 (once; about 2 minutes)" >&2
  work="$(mktemp -d)"
  log="$work.log"
  cp -R "$sqlite/package.json" "$sqlite/binding.gyp" "$sqlite/src" "$sqlite/deps" "$work/"
  # npm_config_nodedir: the headers above, not a nodedir from the user's npm config.
  if ! (cd "$work" && PATH="$(dirname "$node24"):$PATH" npm_config_nodedir="$headers" npm run build-release >"$log" 2>&1); then
    tail -n 30 "$log" >&2
    echo "scripts/with-node24.sh: compiling better-sqlite3 for Node 24 failed (log: $log)" >&2
    exit 1
  fi
  cp "$work/build/Release/better_sqlite3.node" "$built.tmp" && mv "$built.tmp" "$built"
  rm -rf "$work" "$log"
fi

target="$sqlite/build/Release/better_sqlite3.node"
aside="$target.machine-node"
put_back() { if [ -f "$aside" ]; then mv -f "$aside" "$target"; fi; }
put_back # a run that was killed outright left the machine's build aside
[ -f "$target" ] || { echo "scripts/with-node24.sh: $target is missing: run npm ci (or npm rebuild better-sqlite3) first" >&2; exit 1; }
trap put_back EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mv "$target" "$aside"
cp "$built" "$target"

export PATH="$(dirname "$node24"):$PATH"
echo "Node $(node --version) ($node24): $*" >&2
status=0
"$@" || status=$?
exit "$status"
