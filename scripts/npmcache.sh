#!/usr/bin/env bash
# Installs one pinned package of the npm registry into a cache directory
# outside the repository, unless it is there already, for the tests that
# read it (scripts/axe.sh and scripts/openskill.sh call it):
#
#	bash scripts/npmcache.sh NAME VERSION FILE WHO
#
# puts NAME@VERSION into ${XDG_CACHE_HOME:-$HOME/.cache}/chaturaji/NAME@VERSION
# and checks that node_modules/NAME/FILE is there; WHO says which tests
# need it, for the message when npm is missing. Messages go to stderr.
set -euo pipefail

name=$1 version=$2 file=$3 who=$4

log() { printf '%s: %s\n' "$name" "$*" >&2; }

dir="${XDG_CACHE_HOME:-$HOME/.cache}/chaturaji/$name@$version"
if [ -f "$dir/node_modules/$name/$file" ]; then
	exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
	log "npm is missing: $who need $name from the npm registry; install Node.js and npm (apt-get install npm) and run again"
	exit 1
fi
log "installing $name@$version into $dir"
mkdir -p "$dir"
npm install --no-save --no-audit --no-fund --no-package-lock --silent --prefix "$dir" "$name@$version" >&2
if [ ! -f "$dir/node_modules/$name/$file" ]; then
	log "npm installed $name, but $dir/node_modules/$name/$file is missing"
	exit 1
fi
