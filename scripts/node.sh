#!/usr/bin/env bash
# Installs a Node from the npm registry's Node binary packages (node-<os>-<arch>, which carry
# bin/node and the addon headers in include/node) into a cache outside the project, and prints the
# path of its `node`. Only the npm registry is needed, so CI and offline machines can run it.
#   scripts/node.sh 22             the Node 22 CI tests on ($NODE22_VERSION, default below)
#   scripts/node.sh 24             the Node 24 CI tests on ($NODE24_VERSION, default below)
#   scripts/node.sh 24.18.1        an exact version
# Exits non-zero, saying why, when it cannot.
set -euo pipefail

fail() {
  printf 'scripts/node.sh: %s\n' "$*" >&2
  exit 1
}

case "${1:-}" in
  22) version="${NODE22_VERSION:-22.23.3}" ;;
  24) version="${NODE24_VERSION:-24.21.0}" ;;
  [0-9]*.[0-9]*.[0-9]*) version="$1" ;;
  *) fail "usage: scripts/node.sh 22 | 24 | <x.y.z>" ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/presswork/node"

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) fail "no Node binary package for $(uname -s) on the npm registry; install Node $version yourself" ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) fail "no Node binary package for $(uname -m) on the npm registry; install Node $version yourself" ;;
esac
pkg="node-$os-$arch@$version"
dir="$cache/$version"

if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$version" ]; then
  printf '%s\n' "$dir/bin/node"
  exit 0
fi

echo "Installing Node $version ($pkg from the npm registry) into $dir" >&2
mkdir -p "$cache"
tmp="$(mktemp -d "$cache/.install.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# npm pack checks the tarball against the registry's integrity hash.
if ! (cd "$tmp" && npm pack --loglevel=error "$pkg" >pack.log 2>&1); then
  fail "could not download $pkg from the npm registry ($(npm config get registry)):
$(tail -n 5 "$tmp/pack.log")"
fi
tar -xzf "$tmp"/node-*.tgz -C "$tmp" || fail "could not unpack $pkg"
got="$("$tmp/package/bin/node" --version 2>&1)" || fail "the downloaded Node does not run here ($got): is this a musl system? Install Node $version yourself"
[ "$got" = "v$version" ] || fail "$pkg holds Node $got, not v$version"
[ -f "$tmp/package/include/node/node.h" ] || fail "$pkg carries no addon headers (include/node)"
rm -rf "$dir"
mv "$tmp/package" "$dir"
printf '%s\n' "$dir/bin/node"
