#!/usr/bin/env bash
# The release archives (make release-test): checks dist/SHA256SUMS, then unpacks every
# archive and runs its engine the way this machine can (natively, Windows builds under
# wine, other architectures under qemu-user). Each engine must report the version, be
# static (Linux), give the reference engine's bench signature and answer a UCI session
# with a legal-looking bestmove. A build whose instructions this CPU lacks is reported as
# skipped, not failed; one that cannot run because a runner is missing fails and names the
# package. Under qemu-x86_64 (when there) the AVX2 and AVX-512 builds must refuse, with a
# clear line, a CPU without those instructions. Prints a table of the results.
# Usage: tests/release_test.sh DIST_DIR REFERENCE_ENGINE VERSION
set -u
cd "$(dirname "$0")/.."
dist=${1:?usage: tests/release_test.sh DIST_DIR REFERENCE_ENGINE VERSION}
ref=${2:?usage: tests/release_test.sh DIST_DIR REFERENCE_ENGINE VERSION}
version=${3:?usage: tests/release_test.sh DIST_DIR REFERENCE_ENGINE VERSION}
export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-$PWD/build/wineprefix}
work=build/release-test
rm -rf "$work"
mkdir -p "$work"
fail=0

(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || { echo "FAILED: $dist/SHA256SUMS"; fail=1; }
want=$("$ref" bench | tail -n 1 | cut -d' ' -f1)
[ -n "$want" ] || { echo "FAILED: no bench from $ref"; exit 1; }

# The wine prefix and one wineserver, before the first Windows engine runs.
if command -v wine >/dev/null && ls "$dist"/*windows*.zip >/dev/null 2>&1; then
    source tests/wine.sh
    wine_start "$work/wineboot.log"
fi

# One UCI session with the engine $bin under ${runner[@]}: its output in $session, wine's
# or qemu's stderr in $work/session.err.
uci_session() {
    session=$({
        printf 'uci\r\nisready\r\nposition startpos moves e2e4\r\ngo depth 6\r\n'
        sleep 5
        printf 'quit\r\n'
    } | timeout 60 "${runner[@]}" "$bin" 2>"$work/session.err" | tr -d '\r')
}

host=$(uname -m)
cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
# The CPU flags (as /proc/cpuinfo names them) each x86-64 level needs beyond the last.
level_flags() {
    case $1 in
    v4) echo "avx512f avx512bw avx512cd avx512dq avx512vl $(level_flags v3)" ;;
    v3) echo "avx avx2 bmi1 bmi2 fma movbe abm f16c $(level_flags v2)" ;;
    v2) echo "popcnt sse4_1 sse4_2 ssse3 cx16" ;;
    *) echo "" ;;
    esac
}
# The first flag of the level this CPU lacks, or nothing.
cpu_lacks() {
    for f in $(level_flags "$1"); do
        case $cpu_flags in *" $f "*) ;; *) echo "$f"; return ;; esac
    done
}

rows=()
row() { rows+=("| $1 | $2 | $3 | $4 | $5 | $6 |"); }
for archive in "$dist"/*.tar.gz "$dist"/*.zip; do
    [ -e "$archive" ] || continue
    file=${archive##*/}
    name=${file%.tar.gz}
    name=${name%.zip}
    target=${name#outpost-"$version"-}
    case $file in
    *.zip) unzip -q "$archive" -d "$work" ;;
    *) tar -C "$work" -xzf "$archive" ;;
    esac
    dir=$work/$name
    bin=$dir/$name
    [[ $target == windows-* ]] && bin=$bin.exe
    problems=""
    for f in README.md LICENSE; do [ -f "$dir/$f" ] || problems+=" no $f;"; done
    [ -x "$bin" ] || problems+=" no engine $bin;"
    level=${target##*-}
    [[ $level == v[234] ]] || level=v1

    runner=() how=native skip=""
    case $target in
    linux-aarch64)
        if [ "$host" != aarch64 ]; then
            if command -v qemu-aarch64 >/dev/null; then
                runner=(qemu-aarch64) how=qemu-aarch64
            else
                problems+=" qemu-aarch64 missing (sudo apt-get install qemu-user);"
            fi
        fi
        ;;
    linux-x86-64*) ;;
    windows-*)
        if command -v wine >/dev/null; then
            runner=(wine) how=wine
        else
            problems+=" wine missing (sudo apt-get install wine64);"
        fi
        ;;
    *) problems+=" unknown target $target;" ;;
    esac
    if [[ $target == *x86-64* ]]; then
        if [ "$host" != x86_64 ]; then
            skip="not an x86-64 machine"
        else
            lacks=$(cpu_lacks "$level")
            [ -z "$lacks" ] || skip="this CPU lacks $lacks"
        fi
    fi
    if [[ $target == linux-* ]] && [ -x "$bin" ] && command -v readelf >/dev/null \
        && readelf -l "$bin" | grep -q INTERP; then
        problems+=" dynamically linked;"
    fi
    if [ -n "$problems" ]; then
        row "$file" "$how" "-" "-" "-" "FAILED:$problems"
        fail=1
        continue
    fi
    if [ -n "$skip" ]; then
        row "$file" "$how" "-" "-" "-" "skipped: $skip"
        continue
    fi

    got_version=$(timeout 120 "${runner[@]}" "$bin" --version 2>/dev/null | tr -d '\r')
    [ "$got_version" = "Outpost $version" ] || problems+=" --version said '$got_version';"
    last=$(timeout 600 "${runner[@]}" "$bin" bench 2>/dev/null | tr -d '\r' | tail -n 1)
    nodes=${last%% *}
    nps=$(echo "$last" | awk '{ print $3 }')
    [ "$nodes" = "$want" ] || problems+=" bench $nodes, not $want;"
    [[ $how == qemu* ]] && nps="(emulated)"
    uci_session
    # wine has failed to start a process on a fresh machine, printing nothing at all (seen
    # in CI, as in tests/windows_test.sh): say what wine printed and try once more (the
    # server started above stays up, so there is nothing to wait for). An engine that
    # answers nothing twice still fails below.
    if [ -z "$session" ] && [ "$how" = wine ]; then
        echo "no output from $file under wine; wine said:"
        tail -n 20 "$work/session.err"
        uci_session
    fi
    grep -q "^id name Outpost $version$" <<<"$session" || problems+=" no id name;"
    grep -qE '^bestmove [a-h][1-8][a-h][1-8][qrbn]?( ponder [a-h][1-8][a-h][1-8][qrbn]?)?$' <<<"$session" \
        || problems+=" no bestmove to 'go depth 6';"
    if [ -n "$problems" ]; then
        row "$file" "$how" "$got_version" "$nodes" "$nps" "FAILED:$problems"
        fail=1
    else
        row "$file" "$how" "$got_version" "$nodes" "$nps" "ok"
    fi
done
[ ${#rows[@]} -gt 0 ] || { echo "FAILED: no archives in $dist"; fail=1; }

# A build for a newer CPU, started on an older one, must say so and exit 1 rather than
# die on an illegal instruction. qemu-x86_64 emulates older CPUs (not AVX-512 ones).
if command -v qemu-x86_64 >/dev/null && [ "$host" = x86_64 ]; then
    for case in "v3 Nehalem AVX2" "v4 Haswell AVX-512F"; do
        set -- $case
        bin=$work/outpost-$version-linux-x86-64-$1/outpost-$version-linux-x86-64-$1
        [ -x "$bin" ] || continue
        out=$(timeout 60 qemu-x86_64 -cpu "$2" "$bin" bench 2>&1)
        status=$?
        if [ $status -eq 1 ] && grep -q "^info string this build of Outpost needs a CPU with $3;" <<<"$out"; then
            rows+=("| linux-x86-64-$1 on a $2 CPU | qemu-x86_64 -cpu $2 | - | - | - | ok: refused, needs $3 |")
        else
            rows+=("| linux-x86-64-$1 on a $2 CPU | qemu-x86_64 -cpu $2 | - | - | - | FAILED: exit $status: ${out:0:120} |")
            fail=1
        fi
    done
fi

echo "reference bench: $want ($ref)"
echo "| archive | run by | --version | bench nodes | nps | result |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
if [ $fail -ne 0 ]; then
    echo "release-test: FAILED"
    exit 1
fi
echo "release-test: ok"
