#!/usr/bin/env bash
# Refreshes the Shopify Admin GraphQL schema used as test data (server/test/fixtures/): Shopify
# publishes it in the npm package @shopify/dev-mcp. Usage: scripts/shopify-admin-schema.sh [version] [package version]
set -euo pipefail
version="${1:-2026-07}"
pkg="${2:-1.16.0}"
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "@shopify/dev-mcp@$pkg" --silent >/dev/null && tar xzf shopify-dev-mcp-*.tgz "package/dist/data/admin_$version.json.gz")
cp "$tmp/package/dist/data/admin_$version.json.gz" "server/test/fixtures/shopify-admin-$version.json.gz"
echo "server/test/fixtures/shopify-admin-$version.json.gz from @shopify/dev-mcp@$pkg"
