# The two commands of the README: `make serve` runs the server on the
# embedded database; `make test` runs the whole test suite, installing what
# it needs first.
.PHONY: test serve bench build screenshots

test:
	./scripts/test.sh

# `make serve` keeps its database and, beside it, the server's key file
# (its secrets) in the user's state directory, out of the work tree, where
# one `git add .` cannot publish them. STATE=DIR puts them elsewhere.
STATE ?= $(or $(XDG_STATE_HOME),$(HOME)/.local/state)/chaturaji

# The first build compiles every dependency (a minute or two): -v lists
# each package as it is compiled, so the wait shows progress. Later builds
# are cached and print nothing.
serve:
	@echo "building bin/chaturaji (the first build takes a minute or two)..."
	@go build -v -o bin/chaturaji ./cmd/chaturaji
	@mkdir -p "$(STATE)" && chmod 700 "$(STATE)"
	./bin/chaturaji serve --db "sqlite:$(STATE)/chaturaji.db"

build:
	go build -o bin/chaturaji ./cmd/chaturaji

bench:
	go run ./cmd/chaturaji bench

# Regenerates docs/screenshots (the README's pictures of the web client):
# games played on a temporary server, photographed in headless Chromium.
screenshots:
	go run ./web/screenshots -out docs/screenshots
