#!/usr/bin/env bash
# Run the whole test suite the way CI does: make PostgreSQL reachable
# (starting or installing it) and Chromium present (installing it with apt),
# then run vet and every Go test against the real server, the embedded
# database and the headless browser.
#
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh ./drg/...  # some packages
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH=$PATH:/usr/local/go/bin

# The report tests open every page in headless Debian Chromium.
if ! command -v chromium >/dev/null 2>&1; then
  echo "test: installing Debian's chromium for the report tests" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq chromium >&2
fi
export TAUDB_REQUIRE_BROWSER=1

TAUDB_TEST_PG_URL=$(bash scripts/pg-ensure.sh)
export TAUDB_TEST_PG_URL
export TAUDB_REQUIRE_PG=1
echo "test: PostgreSQL at ${TAUDB_TEST_PG_URL%%\?*}" | sed 's/:[^:@/]*@/:***@/' >&2

pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
go vet "${pkgs[@]}"
go test -count=1 -timeout 60m "${pkgs[@]}"
