#!/usr/bin/env bash
# The end-to-end suites against the n8n versions of n8n-versions.json's `matrix`, one version after
# another: `npm run test:e2e`, `npm run test:e2e:queue` and, on n8n 2.x, `npm run test:e2e:browser` and
# `npm run test:e2e:durable`, with
# E2E_N8N_VERSION set. No argument: every version, every step. `--others`: the versions but the pinned
# one (CI runs that one whole), each with only the steps of version-checks.json, those whose outcome can
# differ by n8n version (E2E_SCOPE=version-checks). Or name versions as arguments: every step.
# Prints a line per version and suite, and fails if any failed. Cold, each version first takes about
# 5 minutes to provision (cached afterwards).
set -uo pipefail
cd "$(dirname "$0")/../.."

matrix() { node -p "const v = require('./scripts/e2e/n8n-versions.json'); v.matrix.filter((version) => $1).join(' ')"; }
scope=all
case "${1:-}" in
	--others)
		read -r -a versions <<<"$(matrix 'version !== v.pinned')"
		scope=version-checks
		;;
	'') read -r -a versions <<<"$(matrix 'true')" ;;
	*) versions=("$@") ;;
esac
results=()
failed=0
for version in "${versions[@]}"; do
	suites=(test:e2e test:e2e:queue)
	# The browser suite drives n8n 2.x's editor (n8n 1.x's is another: docs/maintainers/development.md,
	# Commands); n8n 1.x has no durable poller.
	[[ $version == 1.* ]] || suites+=(test:e2e:browser test:e2e:durable)
	for suite in "${suites[@]}"; do
		echo "[matrix] n8n $version ($scope): npm run $suite" >&2
		start=$(date +%s)
		if E2E_N8N_VERSION=$version E2E_SCOPE=$scope npm run --silent "$suite"; then outcome=passed; else outcome=FAILED; failed=1; fi
		results+=("n8n $version ($scope), $suite: $outcome in $(($(date +%s) - start)) s")
	done
done
echo "[matrix] results:"
printf '  %s\n' "${results[@]}"
exit $failed
