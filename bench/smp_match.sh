#!/usr/bin/env bash
# Strength of a second thread (issue 32): Outpost with Threads=N against the same build
# with Threads=1, with fastchess from PATH, as an SPRT.
# Usage: bench/smp_match.sh [threads] [elo0 elo1] [tc] [max_games]   (defaults: 2, 0 40, 10+0.1, 1000)
# Concurrency 1, so that each engine has the cores it asks for (run it on an otherwise idle
# machine with at least `threads` cores); Hash 64; openings from tests/data/openings.epd,
# colours swapped per opening; adjudication as bench/sprt.sh. Writes
# runs/smp/<date>-<commit>-t<threads>.{pgn.gz,txt}; record the result in docs/STRENGTH.md.
set -eu
cd "$(dirname "$0")/.."
THREADS=${1:-2}
ELO0=${2:-0}
ELO1=${3:-40}
TC=${4:-10+0.1}
MAX=${5:-1000}
. bench/lib.sh
require_fastchess
prepare_engine
mkdir -p runs/smp
out=runs/smp/$(date -u +%Y%m%d-%H%M)-$commit-t$THREADS
{
    echo "# Outpost $commit Threads=$THREADS vs Threads=1, SPRT [$ELO0, $ELO1], tc $TC, at most $MAX games, $(date -u +%Y-%m-%dT%H:%MZ)"
    fastchess -engine cmd="$work/outpost" name="threads-$THREADS" option.Threads="$THREADS" \
        -engine cmd="$work/outpost" name=threads-1 option.Threads=1 \
        -each tc="$TC" option.Hash=64 -rounds $((MAX / 2)) -games 2 -repeat -concurrency 1 \
        -openings file=tests/data/openings.epd format=epd order=random \
        -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 \
        -resign movecount=3 score=600 twosided=true -draw movenumber=40 movecount=8 score=10 \
        -pgnout file="$out.pgn" 2>&1
} | tee "$out.txt" | grep -E '^(Results|Elo|LLR|Games|Ptnml|SPRT)' || true
gzip -f "$out.pgn"
echo "results in $out.txt"
