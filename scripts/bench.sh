#!/usr/bin/env bash
# Measure taudb-analyze at scale and print one markdown table, every figure
# next to a reference measured in the same run on the same data (cat, psql
# \copy, the sqlite3 shell's .import, COPY TO STDOUT, one pass over the
# values, the 4 GB memory target, and for the readers of Caliper, CUBE and
# HPCToolkit files the TAU profile reader timed alternately with them),
# with the ratio. See scripts/benchtool.
#
#   bash scripts/bench.sh [quick|full|huge] [-out FILE]   # default quick
#
# quick: about 5 minutes on the 2-core development machine (profile folder
#        1,024 threads × 500 regions, other formats' inputs of about 33 MB,
#        ingest 256 × 500 × 2, analyses on 1k, 4k and 16k threads × 100
#        regions, CLI end to end 4,096 × 1,000 × 2);
#        about 1 GB of temporary files.
# full:  an hour or more (profile folder 8,192 × 1,000, ingest 1,024 × 1,000
#        × 2, analyses on 1k, 8k and 64k threads, CLI end to end 65,536 ×
#        1,000 × 2); about 15 GB of temporary files and a PostgreSQL that can
#        hold some 200 million rows for a while.
# huge:  the end to end alone at the issue's 131,072 × 1,000 × 2, its
#        reference at 65,536 threads, with cluster's automatic k checked
#        against full Lloyd's: about an hour, 70 GB of disk at the peak.
# Generated data lives in a temporary folder and private PostgreSQL
# databases, all removed at the end. The table is also written to -out
# (default bench-MODE.md in the current folder).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/local/go/bin

mode=${1:-quick}
shift || true
out=bench-$mode.md
if [ "${1:-}" = "-out" ]; then out=$2; fi

bin=$(mktemp -d "${TMPDIR:-/tmp}/taudb-bench-bin-XXXXXX")
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/tmp/taudb-analyze" ./cmd/taudb-analyze
go build -o "$bin/benchtool" ./scripts/benchtool
pg=$(bash scripts/pg-ensure.sh)
start=$(date +%s)
"$bin/benchtool" -mode "$mode" -pg "$pg" -cli "$bin/tmp/taudb-analyze" -out "$out"
echo "bench: mode $mode took $(( $(date +%s) - start )) s; table in $out" >&2
