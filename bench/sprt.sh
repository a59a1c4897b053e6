#!/usr/bin/env bash
# SPRT self-play with fastchess (from PATH): the working tree's build against a base
# build made from a git ref, 10+0.1, Hash 16, one thread, concurrency 2, openings from
# tests/data/openings.epd with colours swapped per opening.
# Usage: bench/sprt.sh BASE_REF [elo0 elo1] [tc] [max_games]   (defaults: 0 5 10+0.1 40000)
#        bench/sprt.sh --resume NAME               (continue a run that was cut short)
# Writes docs/sprt/<date>-<time>-<base>-<head>.{pgn.gz,txt,patch}; the last lines of .txt give
# the SPRT verdict; .patch is the tested code's difference from the base, so a change
# tested on a branch that is later lost can be rebuilt.
# Bounds: 0 5 for small changes; a change expected to gain a lot (a retune) may use
# wider ones such as 0 20, which end sooner; say which in the commit.
# max_games caps a run: a change still without a verdict there has not shown a gain and is
# not kept (at about 235 games an hour, a change worth 0 Elo needs several thousand games
# to be rejected at 0 10).
# The two builds and fastchess's saved state (config.json, written every two games and on
# Ctrl-C) live in $OUTPOST_SPRT_STATE/NAME (default ~/.cache/outpost-sprt/NAME) until the
# SPRT reaches a verdict, so a run stopped by a reboot or Ctrl-C goes on with --resume NAME,
# NAME being the docs/sprt file name without its extension.
# Games are adjudicated to save time (games average about 150 plies when played out):
# resigned when both engines see 600 cp or more for one side for 3 moves, drawn after
# move 40 when both see 10 cp or less for 8 moves.
set -eu
export PATH="$PATH:/usr/games"
cd "$(dirname "$0")/.."
command -v fastchess >/dev/null || { echo "fastchess not found in PATH (build it from github.com/Disservin/fastchess)" >&2; exit 1; }
state_root=${OUTPOST_SPRT_STATE:-${XDG_CACHE_HOME:-$HOME/.cache}/outpost-sprt}

# Keeps the first N games of a PGN: the games fastchess had counted when it saved its state.
trim_pgn() {
    awk -v n="$2" '/^\[Event / { g++ } g <= n' "$1" >"$1.tmp"
    mv "$1.tmp" "$1"
}

# Games counted in a fastchess config.json.
saved_games() {
    grep -oE '"(wins|losses|draws)": *[0-9]+' "$1" | awk -F: '{ s += $2 } END { print s + 0 }'
}

# The run's game cap in a fastchess config.json: rounds times games per round.
max_games() {
    grep -oE '"(rounds|games)": *[0-9]+' "$1" | awk -F: 'BEGIN { p = 1 } { p *= $2 } END { print p }'
}

# Runs fastchess with the given arguments, appending to $out.txt; drops the state once
# the SPRT has a verdict, and keeps it otherwise.
# Ctrl-C reaches fastchess, which saves its state and stops; tee and this script carry on.
run() {
    trap 'echo "interrupted"' INT
    fastchess "$@" 2>&1 | tee -i -a "$out.txt"
    trap - INT
    if [ -f "$out.pgn" ]; then
        gzip -f "$out.pgn"
    fi
    if grep -q "SPRT.*completed\|H[01] was accepted" "$out.txt"; then
        rm -rf "$state"
    elif [ "$(saved_games "$state/config.json")" -ge "$(max_games "$state/config.json")" ]; then
        echo "# game cap of $(max_games "$state/config.json") reached without a verdict: not shown to gain" | tee -a "$out.txt"
        rm -rf "$state"
    else
        echo "no SPRT verdict yet; continue with: bench/sprt.sh --resume $(basename "$out")"
    fi
}

if [ "${1:-}" = "--resume" ]; then
    name=${2:?usage: bench/sprt.sh --resume NAME}
    out=docs/sprt/$name
    state=$state_root/$name
    [ -f "$state/config.json" ] || { echo "no saved state in $state" >&2; exit 1; }
    if [ -f "$out.pgn.gz" ]; then
        gunzip -f "$out.pgn.gz"
    fi
    games=$(saved_games "$state/config.json")
    if [ -f "$out.pgn" ]; then
        trim_pgn "$out.pgn" "$games"
    fi
    echo "# resumed $(date -u +%Y-%m-%dT%H:%MZ) after $games saved games; later games dropped from the PGN" >>"$out.txt"
    run -config file="$state/config.json" outname="$state/config.json"
    exit 0
fi

BASE=${1:?usage: bench/sprt.sh BASE_REF [elo0 elo1] [tc]}
ELO0=${2:-0}
ELO1=${3:-5}
TC=${4:-10+0.1}
MAX_GAMES=${5:-40000}
head=$(git rev-parse --short HEAD)$(git diff --quiet || echo "+dirty")
base_short=$(git rev-parse --short "$BASE")
mkdir -p docs/sprt
name=$(date -u +%Y%m%d-%H%M)-$base_short-$head
out=docs/sprt/$name
state=$state_root/$name
mkdir -p "$state"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git worktree add -q --detach "$work/base" "$BASE"
make -s -C "$work/base" EXE=outpost-base >/dev/null
cp "$work/base/outpost-base" "$state/"
git diff "$BASE" -- src include Makefile >"$out.patch"
git worktree remove --force "$work/base"
make -s EXE="$state/outpost-new"
{
    echo "# SPRT $head vs $base_short, elo0=$ELO0 elo1=$ELO1, tc $TC, at most $MAX_GAMES games, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "# new bench: $("$state/outpost-new" bench | tail -n 1)"
    echo "# base bench: $("$state/outpost-base" bench | tail -n 1)"
} | tee "$out.txt"
run -engine cmd="$state/outpost-new" name="new-$head" -engine cmd="$state/outpost-base" name="base-$base_short" \
    -each tc="$TC" option.Hash=16 option.Threads=1 -rounds $((MAX_GAMES / 2)) -games 2 -repeat -concurrency 2 \
    -openings file=tests/data/openings.epd format=epd order=random \
    -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 -recover \
    -resign movecount=3 score=600 twosided=true -draw movenumber=40 movecount=8 score=10 \
    -autosaveinterval 2 -config outname="$state/config.json" \
    -pgnout file="$out.pgn"
