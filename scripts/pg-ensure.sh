#!/usr/bin/env bash
# Make a PostgreSQL server reachable for the tests and print the URL to use.
#
# - If a server answers at $TAUDB_TEST_PG_URL (default
#   postgres://postgres@127.0.0.1:5432/test?sslmode=disable), use it.
# - Else, if PostgreSQL is installed but down, start its cluster.
# - Else, install it with apt (Debian's postgresql package) and start it.
# Then make sure the "test" database exists and the postgres user can log in
# over TCP (a password is set when the server does not trust local TCP).
# Prints the URL on stdout; everything else goes to stderr.
set -euo pipefail

url=${TAUDB_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
pwurl=postgres://postgres:taudb@127.0.0.1:5432/test?sslmode=disable

log() { echo "pg-ensure: $*" >&2; }
answers() { command -v psql >/dev/null && psql "$1" -Atqc 'select 1' >/dev/null 2>&1; }
as_postgres() { if command -v runuser >/dev/null; then runuser -u postgres -- "$@"; else su postgres -c "$(printf '%q ' "$@")"; fi; }

if answers "$url"; then echo "$url"; exit 0; fi
if answers "$pwurl"; then echo "$pwurl"; exit 0; fi

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  log "PostgreSQL is not installed; installing it with apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi

version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
if [ -z "$version" ]; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  log "creating cluster $version/main"
  pg_createcluster "$version" main >&2
fi
if ! pg_lsclusters -h | awk -v v="$version" '$1==v && $2=="main" && $4=="online"' | grep -q .; then
  log "starting PostgreSQL $version/main"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || pg_ctlcluster "$version" main start >&2
fi
for _ in $(seq 1 30); do
  as_postgres psql -Atqc 'select 1' >/dev/null 2>&1 && break
  sleep 1
done

as_postgres psql -Atqc "select 1 from pg_database where datname='test'" | grep -q 1 || as_postgres createdb test >&2
if answers "$url"; then echo "$url"; exit 0; fi
log "server does not trust TCP logins; setting a password for the postgres user"
as_postgres psql -qc "alter user postgres password 'taudb'" >&2
if answers "$pwurl"; then echo "$pwurl"; exit 0; fi
log "PostgreSQL is running but cannot be reached at $url or with a password"
exit 1
