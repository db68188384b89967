#!/usr/bin/env bash
# The end-to-end suites against every n8n version of n8n-versions.json's `matrix`, one version after
# another: `npm run test:e2e`, `npm run test:e2e:queue` and, on n8n 2.x, `npm run test:e2e:browser`, with
# E2E_N8N_VERSION set. `--others`: all but the pinned version (CI runs that one already); or name versions
# as arguments. Prints a line per version
# and suite, and fails if any failed. Cold, each version first takes about 5 minutes to provision (cached
# afterwards); warm, a version takes 6 to 8 minutes.
set -uo pipefail
cd "$(dirname "$0")/../.."

matrix() { node -p "const v = require('./scripts/e2e/n8n-versions.json'); v.matrix.filter((version) => $1).join(' ')"; }
case "${1:-}" in
	--others) read -r -a versions <<<"$(matrix 'version !== v.pinned')" ;;
	'') read -r -a versions <<<"$(matrix 'true')" ;;
	*) versions=("$@") ;;
esac
results=()
failed=0
for version in "${versions[@]}"; do
	suites=(test:e2e test:e2e:queue)
	# The browser suite drives n8n 2.x's editor; n8n 1.x's editor is another (README, Commands).
	[[ $version == 1.* ]] || suites+=(test:e2e:browser)
	for suite in "${suites[@]}"; do
		echo "[matrix] n8n $version: npm run $suite" >&2
		start=$(date +%s)
		if E2E_N8N_VERSION=$version npm run --silent "$suite"; then outcome=passed; else outcome=FAILED; failed=1; fi
		results+=("n8n $version, $suite: $outcome in $(($(date +%s) - start)) s")
	done
done
echo "[matrix] results:"
printf '  %s\n' "${results[@]}"
exit $failed
