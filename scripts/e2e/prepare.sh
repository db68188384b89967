#!/usr/bin/env bash
# Fetches everything the end-to-end suites need beside the repository, so that they start at once and
# never share the machine with an install: Debian's Chromium, PostgreSQL and Redis when missing, and
# Node 24 with every n8n version of n8n-versions.json's matrix (the pinned one first), into
# provision.sh's cache folder. Each part is a no-op for what is there; a suite that starts while its
# version is being provisioned waits for it (provision.sh's lock). The Debian packages and the n8n
# versions come from different registries and install side by side.
# Prints one line per part with its time, for .ci/run's stage table.
set -euo pipefail
cd "$(dirname "$0")"

# Runs a part with its output in the log (stderr), then prints "<part>: <seconds> s".
timed() {
	local name=$1 start=$SECONDS
	shift
	"$@" >&2
	echo "$name: $((SECONDS - start)) s"
}

debian() {
	timed 'Chromium (Debian)' bash chromium.sh
	timed 'PostgreSQL and Redis (Debian)' bash queue-services.sh
}
debian_log=$(mktemp)
debian >"$debian_log" &
debian_pid=$!

versions=$(node -p "const v = require('./n8n-versions.json'); [v.pinned, ...v.matrix.filter((version) => version !== v.pinned)].join(' ')")
for version in $versions; do
	E2E_N8N_VERSION=$version timed "Node 24 and n8n $version" bash provision.sh
done

status=0
wait "$debian_pid" || status=$?
cat "$debian_log"
rm -f "$debian_log"
exit $status
