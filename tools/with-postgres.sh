#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster: initdb in a temporary folder, the server
# on a free loopback port (as the postgres user when run as root, since PostgreSQL refuses to run
# as root), a role `pagerd` with a random password and a database `pagerd`. The command gets
# PAGERD_TEST_POSTGRES_URL (postgres://pagerd@127.0.0.1:PORT/pagerd?sslmode=disable) and
# PAGERD_TEST_POSTGRES_PASSWORD; the PostgreSQL programs' folder is PAGERD_TEST_POSTGRES_BIN and the
# cluster's data folder PAGERD_TEST_POSTGRES_DATA (for tests that restart the server).
# The cluster is stopped and removed when the command ends, whatever its outcome.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "with-postgres: no PostgreSQL server installed (make postgres-deps)" >&2; exit 1; }
dir=$(mktemp -d /tmp/pagerd-postgres.XXXXXX)
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
cleanup() {
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop > /dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
[ "$(id -u)" = 0 ] && chown postgres: "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
as_owner sh -c "umask 077; printf '%s' '$password' > '$dir/password'"
as_owner "$bin/initdb" -D "$dir/data" -U pagerd --pwfile="$dir/password" -E UTF8 \
  --auth-local=trust --auth-host=scram-sha-256 > "$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start > /dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
as_owner "$bin/createdb" -h "$dir" -p "$port" -U pagerd pagerd
export PAGERD_TEST_POSTGRES_URL="postgres://pagerd@127.0.0.1:$port/pagerd?sslmode=disable"
export PAGERD_TEST_POSTGRES_PASSWORD="$password"
export PAGERD_TEST_POSTGRES_BIN="$bin"
export PAGERD_TEST_POSTGRES_DATA="$dir/data"
"$@"
