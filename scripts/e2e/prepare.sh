#!/usr/bin/env bash
# Fetches everything the end-to-end suites need beside the repository, so that they start at once and
# never share the machine with an install: Debian's Chromium, PostgreSQL and Redis when missing, and
# Node 24 with every n8n version of n8n-versions.json's matrix (the pinned one first), into
# provision.sh's cache folder; with `--pinned`, the pinned version only (.ci/run). Each part is a no-op for what is there; a suite that starts while its
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

# All versions side by side: the others resolve their trees meanwhile, then wait for the pinned one
# to seed them with its packages (provision.sh), so that they unpack only what differs.
versions() { node -p "const v = require('./n8n-versions.json'); $1"; }
pinned=$(versions 'v.pinned')
provisions=()
provision() {
	local log
	log=$(mktemp)
	E2E_N8N_VERSION=$1 E2E_SEED_VERSION=${2:-} timed "Node 24 and n8n $1${2:+ (seeded with $2)}" bash provision.sh >"$log" &
	provisions+=("$!:$log")
}
provision "$pinned"
if [ "${1:-}" != --pinned ]; then
	# The pinned one's provisioning takes its lock at once: a moment, so that the others find it held.
	sleep 2
	for version in $(versions "v.matrix.filter((version) => version !== v.pinned).join(' ')"); do
		provision "$version" "$pinned"
	done
fi

status=0
for other in "${provisions[@]}" "$debian_pid:$debian_log"; do
	wait "${other%%:*}" || status=$?
	cat "${other#*:}"
	rm -f "${other#*:}"
done
exit $status
