#!/usr/bin/env bash
# Installs what n8n's queue mode needs beside n8n, from Debian's packages, when missing: a PostgreSQL server
# and a Redis server. Prints the folder holding PostgreSQL's programs (initdb, postgres, pg_isready).
# Needs root (or the packages already there); the servers themselves are started by the tests, on 127.0.0.1.
set -euo pipefail

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(pg_bin)" ] || ! command -v redis-server >/dev/null; then
	echo "[queue-services] installing postgresql and redis-server" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends postgresql redis-server >&2
fi
# The packages start their own servers on install where an init system runs; these tests use their own.
bin=$(pg_bin)
[ -x "$bin/postgres" ] || { echo "no PostgreSQL server found after install" >&2; exit 1; }
echo "$bin"
