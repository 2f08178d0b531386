#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the session store tests, or
# reuses the one already running, and prints its DSN on stdout:
#
#   export SELLERDESK_TEST_POSTGRES_URL=$(sessions/testdata/start-postgres.sh)
#
# Needs Debian's postgresql package (apt-get install -y postgresql). As root
# it runs the server as the postgres user. Idempotent: safe to call again.
# Settings: SELLERDESK_PG_PORT (default 55432), SELLERDESK_PG_DIR (default
# /tmp/sellerdesk-pg-$PORT). Stop it with: pg_ctl -D "$SELLERDESK_PG_DIR" stop
set -euo pipefail

port="${SELLERDESK_PG_PORT:-55432}"
dir="${SELLERDESK_PG_DIR:-/tmp/sellerdesk-pg-$port}"
sockdir=/tmp
db=sellerdesk_test
user=sellerdesk
password=sellerdesk-test # a throwaway cluster on 127.0.0.1 only

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
	echo "start-postgres: PostgreSQL is not installed (apt-get install -y postgresql)" >&2
	exit 1
fi

as_pg() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

if [ ! -s "$dir/PG_VERSION" ]; then
	mkdir -p "$dir"
	chmod 700 "$dir"
	if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
	as_pg "$bin/initdb" -D "$dir" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
		--no-sync -E UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 || {
		cat "$dir.initdb.log" >&2
		exit 1
	}
fi

if ! as_pg "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
	as_pg "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 \
		-o "-p $port -k $sockdir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
		start >/dev/null || {
		cat "$dir/server.log" >&2
		exit 1
	}
fi

psql() { as_pg "$bin/psql" -h "$sockdir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -Atq "$@"; }
if [ "$(psql -c "SELECT 1 FROM pg_roles WHERE rolname = '$user'")" != 1 ]; then
	psql -c "CREATE ROLE $user LOGIN PASSWORD '$password'"
fi
if [ "$(psql -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
	psql -c "CREATE DATABASE $db OWNER $user"
fi

echo "postgres://$user:$password@127.0.0.1:$port/$db?sslmode=disable"
