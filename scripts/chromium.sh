#!/usr/bin/env bash
# Installs Chromium for the browser tests of package web when it is missing:
# Debian's package `chromium`, which puts the browser at /usr/bin/chromium
# (the tests look there, or at $CHROMIUM_PATH). It runs `apt-get update`
# first only if the package is not known yet. It needs root; on a machine
# where Chromium is already installed it does nothing. `scripts/test.sh`
# calls it; messages go to stderr.
set -euo pipefail

log() { printf 'chromium.sh: %s\n' "$*" >&2; }

if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then
	exit 0
fi
if [ -x /usr/bin/chromium ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	log "Chromium is missing and this is not root: install it yourself (apt-get install chromium) or set CHROMIUM_PATH"
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-cache show chromium >/dev/null 2>&1; then
	log "apt-get update"
	apt-get update -qq >&2
fi
log "installing chromium"
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
if [ ! -x /usr/bin/chromium ]; then
	log "apt-get installed chromium, but /usr/bin/chromium is missing"
	exit 1
fi
log "installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
