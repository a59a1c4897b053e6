# Steps the match scripts share; sourced by them (`. bench/lib.sh` from the repository's
# top directory), not run.

# Exits with a message unless fastchess is on PATH.
require_fastchess() {
    command -v fastchess >/dev/null && return
    echo "fastchess not found in PATH (build it from github.com/Disservin/fastchess)" >&2
    exit 1
}

# Builds the working tree and copies the engine to $work/outpost (a folder removed on exit),
# so that rebuilding the tree during a long match changes nothing; sets $commit to the
# build's revision (bench/engine_rev.sh).
prepare_engine() {
    make -s
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cp outpost "$work/outpost"
    commit=$(bench/engine_rev.sh)
}

# Prints the nodes per second of `$1 bench` (an engine that takes `bench` as its argument:
# Outpost, Ethereal, Stash, Berserk, Weiss, Stockfish), read as the last number on the last
# line that names nps or nodes/second, or "n/a" when the engine gives none within 5 minutes.
bench_nps() {
    local nps
    nps=$(timeout 300 "$1" bench </dev/null 2>&1 | grep -iE 'nps|nodes/second' | tail -n 1 |
        grep -oE '[0-9]+' | tail -n 1) || true
    echo "${nps:-n/a}"
}
