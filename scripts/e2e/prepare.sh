#!/usr/bin/env bash
# Fetches what the end-to-end suites need beside the repository, so that they start at once. `--pinned`:
# Debian's Chromium, PostgreSQL and Redis when missing, then Node 24 and the pinned n8n version;
# `--others`: the other n8n versions of n8n-versions.json's matrix. Both go into provision.sh's cache
# folder; each script is a no-op for what is there, and a suite that starts while its version is being
# provisioned waits for it (provision.sh's lock).
set -euo pipefail
cd "$(dirname "$0")"
versions() { node -p "const v = require('./n8n-versions.json'); $1"; }
case "${1:-}" in
	--pinned)
		bash chromium.sh >/dev/null
		bash queue-services.sh >/dev/null
		wanted=$(versions 'v.pinned')
		;;
	--others) wanted=$(versions "v.matrix.filter((version) => version !== v.pinned).join(' ')") ;;
	*) echo "usage: prepare.sh --pinned | --others" >&2 && exit 2 ;;
esac
for version in $wanted; do
	E2E_N8N_VERSION=$version bash provision.sh >/dev/null
done
