#!/usr/bin/env bash
# The SPSA interface of a TUNE=1 build (tests/tune_test.sh ENGINE TUNE_ENGINE): `spsa`
# prints one OpenBench input line per parameter; the tuning build lists each as a spin
# option with that default and range, a value out of range is refused, and a value set
# changes the search (go depth N's node count) while the defaults give the plain build's.
set -u
plain=${1:?usage: tests/tune_test.sh ENGINE TUNE_ENGINE}
tune=${2:?usage: tests/tune_test.sh ENGINE TUNE_ENGINE}
fail() { echo "tune_test: $*"; exit 1; }
spsa=$("$plain" spsa)
n=$(printf '%s\n' "$spsa" | grep -c -E '^[a-z_0-9]+, int, -?[0-9]+, -?[0-9]+, -?[0-9]+, [0-9]+, 0\.002$')
[ "$n" -ge 20 ] && [ "$n" = "$(printf '%s\n' "$spsa" | wc -l)" ] || fail "spsa printed $n well-formed lines of $(printf '%s\n' "$spsa" | wc -l)"
uci=$(printf 'uci\nquit\n' | "$tune")
plain_uci=$(printf 'uci\nquit\n' | "$plain")
printf '%s\n' "$plain_uci" | grep -q '^option name lmr_base ' && fail "the plain build lists the parameters"
while IFS=', ' read -r name _ value min max _; do
    printf '%s\n' "$uci" | grep -qx "option name $name type spin default $value min $min max $max" ||
        fail "uci does not list $name as in spsa ($value, $min..$max)"
done <<<"$spsa"
nodes() { printf '%sposition startpos moves e2e4 e7e5\ngo depth 9\n' "$2" | "$1" | grep '^info depth 9 ' | tail -n 1 | sed 's/.* nodes \([0-9]*\) .*/\1/'; }
base=$(nodes "$plain" "")
[ -n "$base" ] || fail "no depth-9 line from the plain build"
[ "$(nodes "$tune" "")" = "$base" ] || fail "the tuning build's defaults search differently"
[ "$(nodes "$tune" $'setoption name lmr_base value 150\n')" != "$base" ] || fail "setting lmr_base changed nothing"
out=$(printf 'setoption name lmr_base value 9999\nquit\n' | "$tune")
printf '%s\n' "$out" | grep -q "info string lmr_base must be an integer from" || fail "an out-of-range value was not refused: $out"
echo "tune_test: $n parameters, uci and spsa agree, a set value changes the search, defaults match the plain build"
