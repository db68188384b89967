#!/usr/bin/env bash
# `npm run test:release`, the release tier: what a release checks beyond .ci/run, which checks every
# commit on the pinned n8n. The steps whose outcome can differ by n8n version (version-checks.json), on
# every other version of n8n-versions.json's matrix (matrix.sh --others). Run by
# .github/workflows/publish.yml after .ci/run and before it publishes, and before resolving an issue
# that changes what can differ by version (docs/maintainers/development.md, Releasing).
#
# Everything the suites need is provisioned first and alone (prepare.sh: every version of the matrix,
# Debian's packages), and the package packed once, as .ci/run does: the suites post bursts and wait on
# polls in real time, so they never share the machine with an install or a build. Prints each part's
# time at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."

times=()
timed() {
	local name=$1 start=$SECONDS status=0
	shift
	"$@" || status=$?
	times+=("$(printf '%-40s %5d s%s' "$name" $((SECONDS - start)) "$([ $status -eq 0 ] || echo '  FAILED')")")
	return $status
}
print_times() {
	echo "[release] times (total $((SECONDS / 60)) min $((SECONDS % 60)) s):"
	printf '  %s\n' "${times[@]}"
}
trap print_times EXIT

timed 'provisioning every n8n version' bash scripts/e2e/prepare.sh
pack_folder=$(mktemp -d)
timed 'build and pack, once for the suites' bash -c 'rm -rf dist && npm run build >/dev/null && npm pack --silent --pack-destination "$1" >/dev/null' _ "$pack_folder"
E2E_PACKAGE_TARBALL=$(ls "$pack_folder"/*.tgz)
export E2E_PACKAGE_TARBALL
# A part that fails does not stop the ones after it: each has its own verdict, and the run fails at the end.
failed=0
timed 'version checks on the other n8n versions' bash scripts/e2e/matrix.sh --others || failed=1
# The ticket examples (Zendesk, Jira, Slack), all three, in one process and in queue mode (a main, a
# webhook process, two workers), on every version, the pinned one too: .ci/run runs Jira alone in queue
# mode there.
for version in $(node -p "require('./scripts/e2e/n8n-versions.json').matrix.join(' ')"); do
	for mode in regular queue; do
		timed "tickets ($mode), n8n $version" env E2E_N8N_VERSION="$version" E2E_TICKET_MODE="$mode" npm run --silent test:e2e:tickets || failed=1
	done
done
exit $failed
