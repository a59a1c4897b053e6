#!/usr/bin/env bash
# Tactical suites at a fixed time per position: Bratko-Kopec and ECM (GCP selection).
# Usage: bench/tactics.sh [ms per position] (default 1000)
set -eu
cd "$(dirname "$0")/.."
MS=${1:-1000}
make -s
for suite in bk ecmgcp; do
    ./outpost epd "tests/data/$suite.epd" "$MS" | tail -n 1 | sed "s/^/$suite: /"
done
