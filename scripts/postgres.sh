#!/usr/bin/env bash
# Starts a PostgreSQL server for the tests and prints the URL of a database
# on it, for CHATURAJI_TEST_POSTGRES:
#
#	export CHATURAJI_TEST_POSTGRES="$(bash scripts/postgres.sh)"
#
# On a machine without PostgreSQL it installs Debian's package first (as
# root). The server is a cluster of its own, not the system's: its data in
# $CHATURAJI_PG_DATA (by default /var/lib/postgresql/chaturaji-test as root,
# ~/.local/state/chaturaji/postgres otherwise), listening on 127.0.0.1 only,
# port $CHATURAJI_PG_PORT (54329), started with pg_ctl, so it needs no
# systemd. It keeps nothing that matters: fsync is off. Running the script
# again reuses the cluster, starting it if it has stopped. `scripts/test.sh`
# calls it; messages go to stderr, the URL alone to stdout.
set -euo pipefail

port=${CHATURAJI_PG_PORT:-54329}
role=chaturaji
password=chaturaji
database=chaturaji_test

log() { printf 'postgres.sh: %s\n' "$*" >&2; }
die() {
	log "$*"
	exit 1
}

root=false
if [ "$(id -u)" = 0 ]; then root=true; fi
if $root; then
	data=${CHATURAJI_PG_DATA:-/var/lib/postgresql/chaturaji-test}
else
	data=${CHATURAJI_PG_DATA:-${XDG_STATE_HOME:-$HOME/.local/state}/chaturaji/postgres}
fi
case $data in
/*) ;;
*) data=$PWD/$data ;;
esac

# bindir prints the directory of the newest PostgreSQL server installed.
bindir() {
	local d
	for d in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -rV); do
		if [ -x "$d/postgres" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
			echo "$d"
			return
		fi
	done
	if command -v postgres >/dev/null && command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
		dirname "$(command -v pg_ctl)"
		return
	fi
	return 1
}

# install installs Debian's PostgreSQL, quietly unless it fails.
install() {
	$root || die "PostgreSQL is not installed: install Debian's postgresql package (or run this as root)"
	command -v apt-get >/dev/null || die "PostgreSQL is not installed and there is no apt-get to install it"
	log "installing PostgreSQL (apt-get install postgresql)"
	local out
	out=$(mktemp)
	if ! {
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq &&
			apt-get install -y -qq --no-install-recommends postgresql
	} >"$out" 2>&1; then
		cat "$out" >&2
		rm -f "$out"
		die "installing PostgreSQL failed"
	fi
	rm -f "$out"
}

# as_postgres runs a command as the user that owns the cluster: postgres
# when we are root (PostgreSQL refuses to run as root), else ourselves.
as_postgres() {
	if $root; then
		(cd / && runuser -u postgres -- "$@")
	else
		"$@"
	fi
}

# quietly runs a command, showing its output only if it fails.
quietly() {
	local out
	out=$(mktemp)
	if ! "$@" >"$out" 2>&1; then
		cat "$out" >&2
		rm -f "$out"
		return 1
	fi
	rm -f "$out"
}

bin=$(bindir) || {
	install
	bin=$(bindir) || die "PostgreSQL was installed but its programs are not in /usr/lib/postgresql/*/bin"
}
psql=$bin/psql
[ -x "$psql" ] || psql=$(command -v psql) || die "psql is not installed"

# create makes a new cluster in $data.
create() {
	log "creating a test cluster in $data"
	mkdir -p "$data"
	if $root; then
		id postgres >/dev/null 2>&1 || die "there is no postgres user to run the server as"
		chown postgres: "$data"
	fi
	chmod 700 "$data"
	local pwfile
	pwfile=$(mktemp)
	echo "$password" >"$pwfile"
	chmod 644 "$pwfile"
	if ! quietly as_postgres "$bin/initdb" -D "$data" -U postgres --pwfile="$pwfile" \
		--auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C; then
		rm -f "$pwfile"
		die "initdb failed"
	fi
	rm -f "$pwfile"
	# A server for tests: nothing it holds must outlive a crash.
	as_postgres tee -a "$data/postgresql.conf" >/dev/null <<-EOF

		# Added by scripts/postgres.sh for the tests.
		fsync = off
		synchronous_commit = off
		full_page_writes = off
		max_connections = 200
	EOF
}

# answers reports whether the cluster in $data accepts connections.
answers() {
	local p
	p=$(sed -n 4p "$data/postmaster.pid" 2>/dev/null) || return 1
	[ -n "$p" ] && as_postgres "$psql" -X -q -h "$data" -p "$p" -U postgres -d postgres \
		-c 'SELECT 1' >/dev/null 2>&1
}

# start starts the cluster in $data, unless it is running.
start() {
	if as_postgres "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; then
		# Running, starting up, or killed and not yet reaped: give it a
		# few seconds to answer.
		for _ in $(seq 20); do
			if answers; then
				log "the test cluster in $data is running"
				return
			fi
			sleep 0.5
		done
		log "the test cluster in $data does not answer; stopping it"
		as_postgres "$bin/pg_ctl" stop -D "$data" -m immediate -t 10 >/dev/null 2>&1 || true
	fi
	log "starting the test cluster in $data on 127.0.0.1:$port"
	if ! quietly as_postgres "$bin/pg_ctl" start -D "$data" -w -t 60 -l "$data/server.log" \
		-o "-p $port -k '$data' -c listen_addresses=127.0.0.1"; then
		tail -n 20 "$data/server.log" >&2 || true
		return 1
	fi
}

if [ ! -s "$data/PG_VERSION" ]; then
	create
fi
if ! start; then
	# With fsync off, a machine that stopped abruptly may leave a cluster
	# that cannot start. It holds nothing worth keeping: make a new one.
	[ -s "$data/PG_VERSION" ] || die "$data is not a PostgreSQL cluster; not removing it"
	log "the test cluster did not start; making a new one"
	as_postgres "$bin/pg_ctl" stop -D "$data" -m immediate >/dev/null 2>&1 || true
	rm -rf "$data"
	create
	start || die "the test cluster did not start"
fi
# The port it runs on, which may be another than $port if it was already
# running: the fourth line of its pid file.
port=$(sed -n 4p "$data/postmaster.pid")

sql() { as_postgres "$psql" -X -q -v ON_ERROR_STOP=1 -h "$data" -p "$port" -U postgres -d postgres "$@"; }
sql -c "DO \$\$ BEGIN
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$role') THEN
		CREATE ROLE $role LOGIN PASSWORD '$password';
	END IF;
END \$\$" || die "could not create the role $role"
if [ "$(sql -tA -c "SELECT 1 FROM pg_database WHERE datname = '$database'")" != 1 ]; then
	sql -c "CREATE DATABASE $database OWNER $role" || die "could not create the database $database"
fi

echo "postgres://$role:$password@127.0.0.1:$port/$database?sslmode=disable"
