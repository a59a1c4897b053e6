#!/usr/bin/env bash
# Runs every test binary given on the command line from the repository root, then prints
# one summary line over all of them ("N passed, N failed, N skipped"); skipped tests
# are named, so a check that did not run is never mistaken for one that passed. The UCI
# and stress tests run once per thread count in OUTPOST_TEST_THREAD_COUNTS (default "1"),
# with OUTPOST_TEST_THREADS set for each run.
set -u
cd "$(dirname "$0")/.."
passed=0 failed=0 skipped=0 bad=() skips=()
runs=()
for t in "$@"; do
    case "$(basename "$t")" in
    test_uci | test_stress)
        for n in ${OUTPOST_TEST_THREAD_COUNTS:-1}; do runs+=("$n:$t"); done ;;
    *) runs+=("1:$t") ;;
    esac
done
for run in "${runs[@]}"; do
    n=${run%%:*} t=${run#*:}
    [ "$n" != 1 ] && echo "== $t with Threads $n"
    out=$(OUTPOST_TEST_THREADS=$n "$t" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
    k=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -n1)
    while read -r name; do skips+=("$name"); done < <(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([a-z_0-9]*\)$/\1/p')
    passed=$((passed + ${p:-0}))
    skipped=$((skipped + ${k:-0}))
    failed=$((failed + ${f:-0}))
    if [ "$rc" -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); bad+=("$t, Threads $n (exit $rc)"); fi
    [ -n "$f" ] && [ "$f" != 0 ] && bad+=("$t, Threads $n")
done
echo
[ ${#bad[@]} -gt 0 ] && printf 'failing: %s\n' "${bad[@]}"
[ ${#skips[@]} -gt 0 ] && printf 'skipped: %s\n' "${skips[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
