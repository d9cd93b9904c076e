#!/usr/bin/env bash
# Runs every fuzz target of the module for a short time on top of its seed
# corpus (the f.Add seeds and testdata/fuzz), one after the other, and fails
# if any finds an input that breaks it (the input is then written to the
# target's testdata/fuzz directory, to be kept as a regression test once
# fixed). The targets are found with `go test -list`, so a new one is run
# without being named here.
#
#   FUZZTIME=2000x  how much each target fuzzes (go test's -fuzztime): a
#                   count of inputs, not a duration, because go1.26's fuzz
#                   coordinator can fail a target with a bare "context
#                   deadline exceeded" when a duration runs out while a
#                   starved worker is mid-input (go.dev/issue/75804, fixed
#                   in go1.27); a count sets no deadline to race
#   FUZZ_PKGS=...   the packages to look in (default ./...)
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-2000x}
pkgs=${FUZZ_PKGS:-./...}

# `go test -list` prints each package's matching names, then its "ok"
# line: pair each name with the package that follows it.
# shellcheck disable=SC2086
targets=$(go test -list '^Fuzz' $pkgs | awk '
	/^Fuzz/ { names[n++] = $1; next }
	/^ok/   { for (i = 0; i < n; i++) print $2, names[i]; n = 0 }
')
if [ -z "$targets" ]; then
	echo "fuzz.sh: no fuzz targets found in $pkgs" >&2
	exit 1
fi

count=$(printf '%s\n' "$targets" | wc -l)
echo "fuzz.sh: $count targets, $fuzztime each"
failed=()
start=$SECONDS
while read -r pkg name; do
	printf '== %s %s\n' "$pkg" "$name"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 10s "$pkg" 2>&1 | grep -v '^fuzz: elapsed'; then
		failed+=("$pkg $name")
	fi
done <<< "$targets"
echo "fuzz.sh: $count targets in $((SECONDS - start))s"
if [ ${#failed[@]} -gt 0 ]; then
	printf 'fuzz.sh: FAILED: %s\n' "${failed[@]}" >&2
	exit 1
fi
