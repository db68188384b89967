#!/usr/bin/env bash
# Fetches everything the end-to-end suites need beside the repository, so that they start at once: Debian's
# Chromium, PostgreSQL and Redis when missing, then Node 24 and every n8n version of n8n-versions.json's
# matrix (the pinned one first) into provision.sh's cache folder. Each script is a no-op for what is there;
# a suite that starts while its version is being provisioned waits for it (provision.sh's lock).
set -euo pipefail
cd "$(dirname "$0")"
bash chromium.sh >/dev/null
bash queue-services.sh >/dev/null
for version in $(node -p "const v = require('./n8n-versions.json'); [v.pinned, ...v.matrix.filter((x) => x !== v.pinned)].join(' ')"); do
	E2E_N8N_VERSION=$version bash provision.sh >/dev/null
done
