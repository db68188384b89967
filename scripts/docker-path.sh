#!/usr/bin/env bash
# Runs the README's "n8n in Docker" install path with podman against a locally built image that
# resembles n8nio/n8n (user `node`, data in /home/node/.n8n, `n8n` as the command, npm inside), for
# machines that reach no image registry. Needs root; installs podman, runc and debootstrap from
# Debian's packages when missing. Not part of CI: building the image takes about 15 minutes cold
# (docs/maintainers/development.md, n8n in Docker).
#
#   scripts/docker-path.sh            build the image (once), run the README's commands, check, clean up
#   KEEP=1 scripts/docker-path.sh     leave the container running afterwards
#
# Host quirks this works around (a Firecracker sandbox, cgroup v1, no CAP_SYS_RESOURCE):
#   - crun refuses cgroup v1 "hybrid" mode  -> --runtime runc
#   - podman's default ulimits (nofile/nproc 1048576/4194304) cannot be set -> lower --ulimit values
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${DOCKER_PATH_WORK:-/tmp/docker-path}
N8N_VERSION=${E2E_N8N_VERSION:-$(node -p 'require(process.argv[1]).pinned' "$REPO/scripts/e2e/n8n-versions.json")}
IMAGE=localhost/n8n-local:$N8N_VERSION
NAME=${CONTAINER:-n8n}
VOLUME=${VOLUME:-n8n_data}
RUN_OPTS=(--runtime runc --ulimit nofile=16384:16384 --ulimit nproc=32768:32768)
log() { echo "[docker-path $(date +%T)] $*" >&2; }

if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null; then
	apt-get update -qq && apt-get install -y -qq podman runc debootstrap uidmap slirp4netns fuse-overlayfs >/dev/null
fi

wait_healthy() {
	for _ in $(seq 1 120); do
		curl -fsS http://127.0.0.1:5678/healthz >/dev/null 2>&1 && curl -fsS http://127.0.0.1:5678/rest/settings >/dev/null 2>&1 && return 0
		sleep 1
	done
	podman logs --tail 50 "$NAME" >&2
	return 1
}

# 1. The image: Debian bookworm + Node 24 + npm + n8n, from the e2e provisioning cache.
if ! podman image exists "$IMAGE"; then
	CACHE=$(N8N_WOOTRIC_CACHE=${N8N_WOOTRIC_CACHE:-$WORK/cache} E2E_N8N_VERSION=$N8N_VERSION \
		bash "$REPO/scripts/e2e/provision.sh")
	# Debian from the mirror this machine's apt uses.
	MIRROR=$(grep -rhoE 'https?://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null | head -1)
	[ -d "$WORK/rootfs/usr" ] || debootstrap --variant=minbase bookworm "$WORK/rootfs" "$MIRROR"
	IMG=$WORK/image-root
	rm -rf "$IMG" && cp -a "$WORK/rootfs" "$IMG"
	install -m 755 "$CACHE/runtime/node_modules/node/bin/node" "$IMG/usr/local/bin/node"
	mkdir -p "$IMG/usr/local/lib/node_modules"
	# The `node` npm package carries no npm; the host's (npm 11) runs on Node 24.
	cp -a "$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")" "$IMG/usr/local/lib/node_modules/npm"
	ln -s ../lib/node_modules/npm/bin/npm-cli.js "$IMG/usr/local/bin/npm"
	ln -s ../lib/node_modules/npm/bin/npx-cli.js "$IMG/usr/local/bin/npx"
	cp -a "$CACHE/n8n" "$IMG/usr/local/lib/n8n"
	ln -s ../lib/n8n/node_modules/n8n/bin/n8n "$IMG/usr/local/bin/n8n"
	chroot "$IMG" useradd --create-home --uid 1000 --shell /bin/sh node
	mkdir -p "$IMG/home/node/.n8n" && chroot "$IMG" chown -R node:node /home/node
	tar -C "$IMG" -c . | podman import \
		--change 'USER node' --change 'WORKDIR /home/node' \
		--change 'ENV NODE_ENV=production' --change 'ENV N8N_RELEASE_TYPE=stable' \
		--change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' \
		--change 'EXPOSE 5678/tcp' --change 'CMD ["n8n"]' - "$IMAGE" >/dev/null
	rm -rf "$IMG"
	log "built $IMAGE"
fi
# Where the registry is reached through a TLS-intercepting proxy (npm's `cafile` set on the host), the
# container's npm needs that CA too; a real n8nio/n8n image on an open network does not.
CAFILE=$(npm config get cafile)
if [ "$CAFILE" != null ] && [ -f "$CAFILE" ]; then
	CTX=$WORK/ca-context && rm -rf "$CTX" && mkdir -p "$CTX"
	cp "$CAFILE" "$CTX/ca.crt" && echo 'cafile=/etc/ssl/certs/ca-certificates.crt' >"$CTX/npmrc"
	printf 'FROM %s\nCOPY ca.crt /etc/ssl/certs/ca-certificates.crt\nCOPY npmrc /usr/local/etc/npmrc\n' "$IMAGE" >"$CTX/Containerfile"
	podman build -q -t "$IMAGE-ca" "$CTX" >/dev/null
	IMAGE=$IMAGE-ca
fi

cleanup() { [ -n "${KEEP:-}" ] || { podman rm -f "$NAME" >/dev/null 2>&1; podman volume rm -f "$VOLUME" >/dev/null 2>&1; }; }
trap cleanup EXIT

# 2. A container as the n8n docs start one: a named volume on /home/node/.n8n.
podman rm -f "$NAME" >/dev/null 2>&1 || true
podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
podman volume create "$VOLUME" >/dev/null
podman run -d --name "$NAME" "${RUN_OPTS[@]}" -p 5678:5678 -v "$VOLUME:/home/node/.n8n" \
	${EXTRA_ENV:+-e "$EXTRA_ENV"} "$IMAGE" >/dev/null
wait_healthy
log "n8n up"

# 3. The README's commands, literally, with podman for docker.
cd "$REPO"
[ -f n8n-nodes-wootric.tgz ] || { npm ci && npm run pack-for-n8n; }
podman cp n8n-nodes-wootric.tgz "$NAME":/tmp/n8n-nodes-wootric.tgz
podman exec "$NAME" sh -c 'mkdir -p /home/node/.n8n/nodes && cd /home/node/.n8n/nodes && npm install --legacy-peer-deps /tmp/n8n-nodes-wootric.tgz'
podman restart "$NAME" >/dev/null
wait_healthy
log "n8n restarted"

# 4. Checks.
podman exec "$NAME" sh -c 'id; ls -l /tmp/n8n-nodes-wootric.tgz; ls -la /home/node/.n8n/nodes /home/node/.n8n/nodes/node_modules /home/node/.n8n/nodes/node_modules/n8n-nodes-wootric/node_modules 2>&1; cat /home/node/.n8n/nodes/package.json; true'
# /types/nodes.json answers 404 without a session in n8n 2.40.7: set up an owner, log in, then ask.
# /rest/settings answers before the auth routes exist (they 404 for a few seconds): retry.
JAR=$(mktemp)
for _ in $(seq 1 60); do
	curl -fsS -o /dev/null -c "$JAR" -H 'content-type: application/json' http://127.0.0.1:5678/rest/owner/setup \
		-d '{"email":"owner@example.com","firstName":"Docker","lastName":"Path","password":"Docker-path-1"}' 2>/dev/null || true
	curl -fsS -o /dev/null -b "$JAR" -c "$JAR" -H 'content-type: application/json' http://127.0.0.1:5678/rest/login \
		-d '{"emailOrLdapLoginId":"owner@example.com","password":"Docker-path-1"}' 2>/dev/null && break
	sleep 1
done
types=$(curl -fsS -b "$JAR" http://127.0.0.1:5678/types/nodes.json)
rm -f "$JAR"
for node in wootric wootricTrigger wootricWebhookTrigger; do
	if grep -q "\"n8n-nodes-wootric.$node\"" <<<"$types"; then log "loaded: n8n-nodes-wootric.$node"
	else log "MISSING: n8n-nodes-wootric.$node"; FAILED=1; fi
done
exit "${FAILED:-0}"
