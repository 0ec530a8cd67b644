#!/usr/bin/env bash
# Runs a command on Node 22 or 24, e.g. `scripts/with-node.sh 24 npm test`, from a checkout
# installed with the machine's Node (npm ci). That Node comes from scripts/node.sh. better-sqlite3
# is compiled for one Node ABI, so a build for the chosen Node (made once, cached beside it) takes
# the place of node_modules' own while the command runs, and the machine's build is put back after,
# even when the command fails or is interrupted. Don't run tests on the machine's Node in this
# checkout meanwhile. sharp, @napi-rs/canvas and esbuild use Node-API: nothing to rebuild.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
usage() { echo "usage: scripts/with-node.sh 22|24 <command> [args…]" >&2; exit 2; }
[ $# -gt 1 ] || usage
major="$1"
shift

node_bin="$("$root/scripts/node.sh" "$major")"
# better-sqlite3 12 derives from node::ObjectWrap, whose header in Node 24.19 and later makes an
# addon compiled against it abort when V8 collects a statement (nodejs/node#65446, open): compile
# it against the 24.18.1 headers, as its published Node 24 binaries are, and it runs on any 24.x.
case "$major" in
  22) headers_version="${NODE22_HEADERS_VERSION:-$("$node_bin" -p 'process.versions.node')}" ;;
  24) headers_version="${NODE24_HEADERS_VERSION:-24.18.1}" ;;
  *) usage ;;
esac
headers="$(dirname "$(dirname "$("$root/scripts/node.sh" "$headers_version")")")"

sqlite="$root/node_modules/better-sqlite3"
[ -f "$sqlite/package.json" ] || { echo "scripts/with-node.sh: no node_modules/better-sqlite3: run npm ci first" >&2; exit 1; }
sqlite_version="$("$node_bin" -p "require('$sqlite/package.json').version")"
abi="$("$node_bin" -p process.versions.modules)"
built="$(dirname "$(dirname "$node_bin")")/better-sqlite3-$sqlite_version-abi$abi-headers$headers_version.node"

if [ ! -f "$built" ]; then
  echo "Compiling better-sqlite3 $sqlite_version for Node $major (once; about 2 minutes)" >&2
  work="$(mktemp -d)"
  log="$work.log"
  cp -R "$sqlite/package.json" "$sqlite/binding.gyp" "$sqlite/src" "$sqlite/deps" "$work/"
  # npm_config_nodedir: the headers above, not a nodedir from the user's npm config.
  if ! (cd "$work" && PATH="$(dirname "$node_bin"):$PATH" npm_config_nodedir="$headers" npm run build-release >"$log" 2>&1); then
    tail -n 30 "$log" >&2
    echo "scripts/with-node.sh: compiling better-sqlite3 for Node $major failed (log: $log)" >&2
    exit 1
  fi
  cp "$work/build/Release/better_sqlite3.node" "$built.tmp" && mv "$built.tmp" "$built"
  rm -rf "$work" "$log"
fi

target="$sqlite/build/Release/better_sqlite3.node"
aside="$target.machine-node"
put_back() { if [ -f "$aside" ]; then mv -f "$aside" "$target"; fi; }
put_back # a run that was killed outright left the machine's build aside
[ -f "$target" ] || { echo "scripts/with-node.sh: $target is missing: run npm ci (or npm rebuild better-sqlite3) first" >&2; exit 1; }
trap put_back EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mv "$target" "$aside"
cp "$built" "$target"

export PATH="$(dirname "$node_bin"):$PATH"
echo "Node $(node --version) ($node_bin): $*" >&2
status=0
"$@" || status=$?
exit "$status"
