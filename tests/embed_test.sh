#!/usr/bin/env bash
# A network built into the engine (make EVALFILE=...): an engine built with
# tests/data/nnue_tiny.nnue must offer it as the default (EvalFile <embedded>, Use NNUE
# true), search with it exactly as the plain engine does with the same file loaded through
# EvalFile (the plain engine's own network being wider, that compares the loops compiled
# for the built-in width with the general ones), and still give the hand-written evaluation's bench with Use NNUE false. A
# portable build of it (x86-64-v2: no AVX2) must give the same bench: the SIMD paths
# compute the scalar code's integers. An engine built without a network (EVALFILE empty)
# starts with the hand-written evaluation and refuses what needs a network.
# Usage: tests/embed_test.sh OUTPOST   (make test; ./outpost, with or without nets/default.nnue)
set -u
cd "$(dirname "$0")/.."
PLAIN=${1:?usage: tests/embed_test.sh OUTPOST}
EMBED=build/embed/outpost PORTABLE=build/embed-v2/outpost NONE=build/embed-none/outpost
make -s EXE=$EMBED EVALFILE=tests/data/nnue_tiny.nnue $EMBED &&
    make -s EXE=$PORTABLE ARCH=x86-64-v2 EVALFILE=tests/data/nnue_tiny.nnue $PORTABLE &&
    make -s EXE=$NONE EVALFILE= $NONE ||
    { echo "embed test FAILED: cannot build $EMBED, $PORTABLE or $NONE"; exit 1; }
fail=0
check() { # what, then the command's status
    if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAILED: $1"; fail=1; fi
}
nodes() { grep -E '^[0-9]+ nodes' | cut -d' ' -f1; }
out=$(printf 'uci\nquit\n' | $EMBED)
grep -q '^option name EvalFile type string default <embedded>$' <<<"$out" &&
    grep -q '^option name Use NNUE type check default true$' <<<"$out"
check "the built-in network is the default" $?
embedded=$($EMBED bench 6 | nodes)
loaded=$(printf 'setoption name EvalFile value tests/data/nnue_tiny.nnue\nsetoption name Use NNUE value true\nbench 6\n' |
    $PLAIN | nodes)
hce=$(printf 'setoption name Use NNUE value false\nbench 6\n' | $PLAIN | nodes)
hce_embed=$(printf 'setoption name Use NNUE value false\nbench 6\n' | $EMBED | nodes)
[ -n "$embedded" ] && [ "$embedded" = "$loaded" ] && [ "$embedded" != "$hce" ]
check "bench 6 with the built-in network $embedded = with EvalFile $loaded (hand-written: $hce)" $?
[ -n "$hce" ] && [ "$hce_embed" = "$hce" ]
check "Use NNUE false gives the hand-written bench $hce_embed" $?
portable=$($PORTABLE bench 6 | nodes)
[ -n "$embedded" ] && [ "$portable" = "$embedded" ]
check "the portable build's bench $portable equals the native build's" $?
out=$(printf 'uci\nquit\n' | $NONE)
grep -q '^option name EvalFile type string default <empty>$' <<<"$out" &&
    grep -q '^option name Use NNUE type check default false$' <<<"$out"
check "without a built-in network the hand-written evaluation is the default" $?
none=$($NONE bench 6 | nodes)
[ -n "$hce" ] && [ "$none" = "$hce" ]
check "its bench $none is the hand-written bench" $?
out=$(printf 'setoption name EvalFile value <embedded>\nsetoption name Use NNUE value true\nquit\n' | $NONE)
grep -q "no network is built in" <<<"$out" && grep -q "Use NNUE: no network loaded" <<<"$out"
check "EvalFile <embedded> and Use NNUE true without a network are refused" $?
[ $fail = 0 ] && echo "embed test passed" || echo "embed test FAILED"
exit $fail
