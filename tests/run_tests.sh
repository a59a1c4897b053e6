#!/usr/bin/env bash
# Runs every test binary given on the command line from the repository root, then prints
# one summary line over all of them ("N passed, N failed").
set -u
cd "$(dirname "$0")/.."
passed=0 failed=0 bad=()
for t in "$@"; do
    out=$("$t" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    if [ "$rc" -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); bad+=("$t (exit $rc)"); fi
    [ -n "$f" ] && [ "$f" != 0 ] && bad+=("$t")
done
echo
[ ${#bad[@]} -gt 0 ] && printf 'failing: %s\n' "${bad[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
