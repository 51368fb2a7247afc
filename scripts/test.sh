#!/usr/bin/env bash
# Run the whole test suite the way CI does: make PostgreSQL reachable
# (starting or installing it), then run vet and every Go test against the
# real server and the embedded database.
#
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh ./drg/...  # some packages
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH=$PATH:/usr/local/go/bin
TAUDB_TEST_PG_URL=$(bash scripts/pg-ensure.sh)
export TAUDB_TEST_PG_URL
export TAUDB_REQUIRE_PG=1
echo "test: PostgreSQL at ${TAUDB_TEST_PG_URL%%\?*}" | sed 's/:[^:@/]*@/:***@/' >&2

pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
go vet "${pkgs[@]}"
go test -count=1 -timeout 60m "${pkgs[@]}"
