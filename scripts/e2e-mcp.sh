#!/usr/bin/env bash
# End-to-end check of `playchat mcp` with a client of another ecosystem: the
# official TypeScript MCP SDK (npm @modelcontextprotocol/sdk, pinned in
# scripts/interop/package-lock.json) starts the built binary over stdio with
# a bare environment (HOME only, an empty data dir), lists the tools, runs
# query_kb and read_document on its first hit, and checks that a path attack
# is refused with a coded error. Needs no display.
# Usage: scripts/e2e-mcp.sh [BINARY]   (default build/bin/playchat)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/build/bin/playchat}
[ -x "$BIN" ] || { echo "e2e-mcp: no binary at $BIN (make build first)" >&2; exit 1; }
DIR=$ROOT/scripts/interop
if [ ! -d "$DIR/node_modules" ] || [ "$DIR/package-lock.json" -nt "$DIR/node_modules/.package-lock.json" ]; then
  (cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error)
fi
HOME_DIR=$(mktemp -d)
trap 'rm -rf "$HOME_DIR"' EXIT
# The seeded user guide answers "playchat" in a new data dir.
MCP_HOME=$HOME_DIR MCP_QUERY=playchat node "$DIR/mcp-client.mjs" "$BIN"
