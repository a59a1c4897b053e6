#!/usr/bin/env bash
# Speed A/B: the working tree's build against a base build made from a git ref, for
# changes that must make the engine faster without changing its search. Both must print
# the same bench node count (else the change is not a pure speed change and needs an
# SPRT). Runs `bench DEPTH` RUNS times for each, interleaved (base, new, base, new, ...)
# so that a change in machine load hits both alike, and prints the mean nps of each and
# the mean of the per-pair ratios new/base with a 95 % interval (t distribution).
# Measure on an idle machine: a match running beside it makes the spread several times
# wider. Usage: bench/speed_ab.sh [--any-nodes] BASE_REF [runs] [depth]   (defaults: 10
# runs, depth 11). --any-nodes compares the nps of builds whose searches differ (a move
# ordering change): nps alone then says nothing of strength, which needs an SPRT.
# NEW_EVALFILE=/path/net builds that network into the working tree's engine only (the
# base keeps its own): the speed of a wider network against today's, with --any-nodes.
set -eu
cd "$(dirname "$0")/.."
ANY_NODES=0
if [ "${1:-}" = "--any-nodes" ]; then ANY_NODES=1; shift; fi
BASE=${1:?usage: bench/speed_ab.sh [--any-nodes] BASE_REF [runs] [depth]}
RUNS=${2:-10}
DEPTH=${3:-11}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/base" "$BASE"
make -s -C "$work/base" EXE=outpost-base >/dev/null
make -s EXE="$work/outpost-new" ${NEW_EVALFILE:+EVALFILE="$NEW_EVALFILE"} >/dev/null
bench_of() { "$1" bench "$DEPTH" | tail -n 1; }
nb=$(bench_of "$work/base/outpost-base" | cut -d' ' -f1)
nn=$(bench_of "$work/outpost-new" | cut -d' ' -f1)
echo "base $(git rev-parse --short "$BASE"): $nb nodes; new $(bench/engine_rev.sh)${NEW_EVALFILE:+ with $NEW_EVALFILE}: $nn nodes (bench $DEPTH)"
[ "$nb" = "$nn" ] || [ "$ANY_NODES" = 1 ] || { echo "node counts differ: not a pure speed change" >&2; exit 1; }
for ((i = 0; i < RUNS; i++)); do
    echo "$(bench_of "$work/base/outpost-base" | cut -d' ' -f3) $(bench_of "$work/outpost-new" | cut -d' ' -f3)"
done | awk '
    { r[NR] = $2 / $1; sb += $1; sn += $2; sr += r[NR]; print "run " NR ": base " $1 " nps, new " $2 " nps, ratio " sprintf("%.4f", r[NR]) }
    END {
        m = sr / NR
        for (i = 1; i <= NR; i++) v += (r[i] - m) ^ 2
        # Two-sided 95 % t quantiles for NR - 1 degrees of freedom (1..29), then the normal.
        split("12.71 4.30 3.18 2.78 2.57 2.45 2.36 2.31 2.26 2.23 2.20 2.18 2.16 2.14 2.13 2.12 2.11 2.10 2.09 2.09 2.08 2.07 2.07 2.06 2.06 2.06 2.05 2.05 2.05", t, " ")
        q = NR - 1 <= 29 ? t[NR - 1] : 1.96
        h = NR > 1 ? q * sqrt(v / (NR - 1) / NR) : 0
        printf "mean: base %.0f nps, new %.0f nps; ratio new/base %.4f +/- %.4f (95 %%, %d pairs)\n", sb / NR, sn / NR, m, h, NR
    }'
