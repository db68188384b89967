#!/usr/bin/env bash
# Installs Debian's Chromium for the browser e2e when missing (Playwright's own browser download cannot
# work on these machines), with the fonts its screenshots need. Prints the browser's path. Needs root (or
# the package already there).
set -euo pipefail

if ! command -v chromium >/dev/null; then
	echo "[chromium] installing chromium" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium fonts-liberation fonts-dejavu-core >&2
fi
command -v chromium
