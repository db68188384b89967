#!/usr/bin/env bash
# The end-to-end suites against every n8n version of n8n-versions.json's `matrix` (or the versions given as
# arguments), one version after another: `npm run test:e2e` and `npm run test:e2e:queue` with
# E2E_N8N_VERSION set. Prints a line per version and suite, and fails if any failed. Cold, each version
# first takes about 5 minutes to provision (cached afterwards).
set -uo pipefail
cd "$(dirname "$0")/../.."

if [ $# -gt 0 ]; then versions=("$@"); else read -r -a versions <<<"$(node -p "require('./scripts/e2e/n8n-versions.json').matrix.join(' ')")"; fi
results=()
failed=0
for version in "${versions[@]}"; do
	for suite in test:e2e test:e2e:queue; do
		echo "[matrix] n8n $version: npm run $suite" >&2
		start=$(date +%s)
		if E2E_N8N_VERSION=$version npm run --silent "$suite"; then outcome=passed; else outcome=FAILED; failed=1; fi
		results+=("n8n $version, $suite: $outcome in $(($(date +%s) - start)) s")
	done
done
echo "[matrix] results:"
printf '  %s\n' "${results[@]}"
exit $failed
