#!/usr/bin/env bash
# Installs axe-core, the accessibility rules that package web's browser
# tests run on every page, when it is missing: the npm registry's package
# axe-core at the pinned version below, installed with npm into a cache
# directory outside the repository (the web client has no package.json and
# no build step; the tests only read axe.min.js). The tests look at
# $CHATURAJI_AXE if set, else at
# ${XDG_CACHE_HOME:-$HOME/.cache}/chaturaji/axe-core@VERSION/node_modules/axe-core/axe.min.js,
# where this script puts it. `scripts/test.sh` calls it; messages go to
# stderr.
set -euo pipefail

version=4.14.1 # keep in step with axeVersion in web/axe_test.go

log() { printf 'axe.sh: %s\n' "$*" >&2; }

if [ -n "${CHATURAJI_AXE:-}" ]; then
	if [ -f "$CHATURAJI_AXE" ]; then
		exit 0
	fi
	log "CHATURAJI_AXE is $CHATURAJI_AXE, which does not exist"
	exit 1
fi
exec bash "$(dirname "$0")/npmcache.sh" axe-core "$version" axe.min.js "the browser tests"
