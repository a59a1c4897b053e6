#!/usr/bin/env bash
# The network under a checking build (make sanitize): ENGINE, built with no network, loads
# NET through EvalFile and runs `bench DEPTH` in a UCI session; its node count must equal
# that of `REFERENCE bench DEPTH`, an engine with NET built in, since every build computes
# the same integers. With asserts on, ENGINE also checks the incremental accumulators
# against a rebuild from scratch after every move, and a sanitizer report ends it non-zero.
# Usage: tests/net_bench_check.sh ENGINE NET REFERENCE [DEPTH]
set -eu
engine=${1:?usage: tests/net_bench_check.sh ENGINE NET REFERENCE [DEPTH]}
net=${2:?} ref=${3:?} depth=${4:-5}
want=$("$ref" bench "$depth" 2>&1 | tail -n 1)
trap '' PIPE # an engine that died must not end this script before it says so
coproc ENGINE_PROC { "$engine" 2>&1; }
in=${ENGINE_PROC[1]} out=${ENGINE_PROC[0]} pid=$ENGINE_PROC_PID
printf 'setoption name EvalFile value %s\nsetoption name Use NNUE value true\nbench %s\n' "$net" "$depth" >&"$in" || true
# Reads the engine's output to its end (or for at most 10 minutes), keeping the two lines
# looked for and passing on any other than the search's own (a sanitizer's report).
got= loaded=
while IFS= read -r -t 600 line <&"$out"; do
    case $line in
    "info string network '$net'"*) loaded=$line ;;
    *" nodes "*" nps")
        got=$line
        printf 'quit\n' 2>/dev/null >&"$in" || true ;;
    info* | bestmove* | option* | id* | uciok) ;;
    *) printf '%s\n' "$line" >&2 ;;
    esac
done
printf 'quit\n' 2>/dev/null >&"$in" || true # also when the bench line never came
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: $engine exited $rc" >&2; exit 1; }
[ -n "$loaded" ] || { echo "FAIL: $engine did not load $net" >&2; exit 1; }
if [ "${got%% nodes*}" != "${want%% nodes*}" ]; then
    echo "FAIL: bench $depth with $net through EvalFile: '$got'; $ref with it built in: '$want'" >&2
    exit 1
fi
echo "network check passed: bench $depth with $net through EvalFile, ${got%% nodes*} nodes as built in"
