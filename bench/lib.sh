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
