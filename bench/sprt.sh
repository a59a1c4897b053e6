#!/usr/bin/env bash
# SPRT self-play with fastchess (from PATH): the working tree's build against a base
# build made from a git ref, 10+0.1, Hash 16, one thread, concurrency 2 (or
# $OUTPOST_SPRT_CONCURRENCY, which a resumed run also takes), openings from
# tests/data/openings.epd with colours swapped per opening.
# Usage: bench/sprt.sh BASE_REF [elo0 elo1] [tc] [max_games]   (defaults: 0 5 10+0.1 40000)
#        bench/sprt.sh --resume NAME [max_games]   (continue a run that was cut short)
#        bench/sprt.sh --pairs NAME   (print the run's results over its complete game pairs)
#        bench/sprt.sh --docs NAME [NOTE]   (copy the run's record to docs/sprt, see below)
# Writes runs/sprt/<date>-<time>-<base>-<head>.{pgn.gz,txt,patch} (runs/ is git-ignored: record
# the verdict in docs/STRENGTH.md); the last lines of .txt give
# the SPRT verdict; .patch is the tested code's difference from the base, so a change
# tested on a branch that is later lost can be rebuilt.
# Bounds are in normalized Elo, fastchess's default SPRT model (about 0.72 logistic Elo per
# nElo in these self-play games: +16.3 Elo was nElo 22.7). Bounds: 0 5 for small changes;
# a change expected to gain a lot (a retune) may use wider ones such as 0 20, which end
# sooner; say which in the commit.
# max_games caps a run: a change still without a verdict there has not shown a gain and is
# not kept (at about 235 games an hour, a change worth 0 Elo needs several thousand games
# to be rejected at 0 10). The cap is a budget, not part of the test: --resume NAME
# max_games raises it and continues the run. That cannot raise the chance of keeping a
# change worth elo0 or less above alpha, since a change is still kept only when the LLR
# reaches the upper bound, which an uncapped SPRT would reach too; it only costs games.
# The two builds and fastchess's saved state (config.json, written every two games and on
# Ctrl-C) live in $OUTPOST_SPRT_STATE/NAME (default ~/.cache/outpost-sprt/NAME) until the
# SPRT reaches a verdict, so a run stopped by a reboot or Ctrl-C goes on with --resume NAME,
# NAME being the runs/sprt file name without its extension. On a machine without that state
# (a new machine, a cleared cache), --resume rebuilds it: both builds from the base commit
# and NAME.patch, checked against the benches NAME.txt recorded, and fastchess's state
# holding the results of the complete game pairs in NAME.pgn.gz.
# Games are adjudicated to save time (games average about 150 plies when played out):
# resigned when both engines see 600 cp or more for one side for 3 moves, drawn after
# move 40 when both see 10 cp or less for 8 moves.
# --docs writes docs/sprt/NAME.txt (NAME.txt's comment lines, a line saying when and NOTE,
# e.g. "paused for the CI", and fastchess's last results with its verdict if it has one),
# NAME.pgn.gz without its move comments (scores and times: a third of the size), and
# NAME.patch, with which --resume rebuilds the run elsewhere; once a change is on main its
# .patch may go. It reads a running run's files as they stand, so it can be run at any time.
# Two settings for a new run, recorded in NAME.txt's first line (a resume keeps them):
#   OUTPOST_SPRT_EVALFILE=/path/net   both engines built with that network (EVALFILE), so
#                                     that a search change is measured on one network
#   OUTPOST_SPRT_MATCH=1              a plain match of max_games games, no SPRT (elo0 and
#                                     elo1 are then ignored): the Elo with its error bars
#                                     after a fixed number of games, as issue 50's final
#                                     match against the round's first engine asks
set -eu
export PATH="$PATH:/usr/games"
cd "$(dirname "$0")/.."
state_root=${OUTPOST_SPRT_STATE:-${XDG_CACHE_HOME:-$HOME/.cache}/outpost-sprt}

# Keeps the first N games of complete pairs in a PGN: the games fastchess had counted when
# it saved its state (it counts a game once its pair is complete).
trim_pgn() {
    complete_pairs "$1" >/dev/null
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
    rm -f "$state/last.log"
    fastchess "$@" 2>&1 | tee -i -a "$out.txt" "$state/last.log"
    trap - INT
    if [ -f "$out.pgn" ]; then
        gzip -f "$out.pgn"
    fi
    if grep -q "SPRT.*completed\|H[01] was accepted" "$state/last.log"; then
        rm -rf "$state"
    elif [ "$(saved_games "$state/config.json")" -ge "$(max_games "$state/config.json")" ]; then
        if head -n 1 "$out.txt" | grep -q '^# MATCH'; then
            echo "# match complete: $(max_games "$state/config.json") games" | tee -a "$out.txt"
        else
            echo "# game cap of $(max_games "$state/config.json") reached without a verdict: not shown to gain" | tee -a "$out.txt"
        fi
        rm -rf "$state"
    else
        echo "no SPRT verdict yet; continue with: bench/sprt.sh --resume $(basename "$out")"
    fi
}

# Sets args to the fastchess arguments of a run: STATE HEAD BASE TC ELO0 ELO1 MAX_GAMES PGN
# (ELO0 "match": no SPRT).
set_args() {
    local sprt=(-sprt elo0="$5" elo1="$6" alpha=0.05 beta=0.05)
    [ "$5" != match ] || sprt=()
    args=(-engine cmd="$1/outpost-new" name="new-$2" -engine cmd="$1/outpost-base" name="base-$3"
        -each tc="$4" option.Hash=16 option.Threads=1 -rounds $(($7 / 2)) -games 2 -repeat -concurrency "${OUTPOST_SPRT_CONCURRENCY:-2}"
        -openings file=tests/data/openings.epd format=epd order=random
        "${sprt[@]}" -recover
        -resign movecount=3 score=600 twosided=true -draw movenumber=40 movecount=8 score=10
        -autosaveinterval 2 -config outname="$1/config.json"
        -pgnout file="$8")
}

# Keeps the games of complete pairs in the PGN $1 and prints the new side's results over
# them in fastchess's terms: wins, losses, draws, then the pair counts WW WD WL DD LD LL
# (WL: one win and one loss, in either order). A game pairs with the next game of the same
# round: a resumed run may play a round number again, and a game whose partner was cut off
# by an interruption pairs with none.
complete_pairs() {
    : >"$1.pairs"
    awk '
        function flush(s) {
            if (buf == "")
                return
            s = res == "\"1-0\"]" ? 2 : res == "\"0-1\"]" ? 0 : 1 # half points, White
            if (white !~ /^"new-/)
                s = 2 - s
            if (r in first) {
                printf "%s%s", held[r], buf >(FILENAME ".pairs")
                w += (s == 2) + (first[r] == 2); l += (s == 0) + (first[r] == 0)
                d += (s == 1) + (first[r] == 1)
                p[first[r] > s ? first[r] s : s first[r]]++
                delete first[r]
                delete held[r]
            } else {
                first[r] = s
                held[r] = buf
            }
        }
        /^\[Event / { flush(); buf = "" }
        { buf = buf $0 "\n" }
        /^\[Round / { r = $2 }
        /^\[White / { white = $2 }
        /^\[Result / { res = $2 }
        END { flush(); print w + 0, l + 0, d + 0, p["22"] + 0, p["21"] + 0, p["20"] + 0, p["11"] + 0, p["10"] + 0, p["00"] + 0 }
    ' "$1"
    mv "$1.pairs" "$1"
}

# Rebuilds the state of run $1 in $state (see the header).
rebuild_state() {
    local name=$1 out=runs/sprt/$1 header base head tc elo0 elo1 max work stats
    header=$(head -n 1 "$out.txt")
    base=$(echo "$name" | cut -d- -f3)
    head=$(echo "$name" | cut -d- -f4-)
    elo0=$(echo "$header" | sed -n 's/.*elo0=\([-0-9.]*\).*/\1/p')
    elo1=$(echo "$header" | sed -n 's/.*elo1=\([-0-9.]*\).*/\1/p')
    if echo "$header" | grep -q '^# MATCH'; then elo0=match elo1=match; fi
    local evalfile netflag=()
    evalfile=$(echo "$header" | sed -n 's/.*, network \([^ ,]*\).*/\1/p')
    [ -z "$evalfile" ] || netflag=(EVALFILE="$evalfile")
    tc=$(echo "$header" | sed -n 's/.*, tc \([^,]*\),.*/\1/p')
    max=$(echo "$header" | sed -n 's/.*at most \([0-9]*\) games.*/\1/p')
    [ -n "$elo0" ] && [ -n "$elo1" ] && [ -n "$tc" ] && [ -f "$out.patch" ] && [ -f "$out.pgn.gz" ] ||
        { echo "cannot rebuild $name: $out.txt, .patch or .pgn.gz is missing or unreadable" >&2; exit 1; }
    echo "rebuilding the state of $name in $state"
    mkdir -p "$state"
    work=$(mktemp -d)
    git worktree add -q --detach "$work/base" "$base"
    make -s -C "$work/base" EXE=outpost-base "${netflag[@]}" >/dev/null
    cp "$work/base/outpost-base" "$state/"
    [ ! -s "$out.patch" ] || git -C "$work/base" apply "$PWD/$out.patch" # empty: the same commit
    make -s -C "$work/base" EXE=outpost-new "${netflag[@]}" >/dev/null
    cp "$work/base/outpost-new" "$state/"
    git worktree remove --force "$work/base"
    for side in new base; do
        local want got
        want=$(sed -n "s/^# $side bench: \([0-9]*\) nodes.*/\1/p" "$out.txt")
        got=$("$state/outpost-$side" bench | tail -n 1 | cut -d' ' -f1)
        [ "$want" = "$got" ] || { echo "the rebuilt $side side benches $got, the run recorded $want" >&2; rm -rf "$state" "$work"; exit 1; }
    done
    gunzip -f "$out.pgn.gz"
    read -r -a stats <<<"$(complete_pairs "$out.pgn")"
    # fastchess writes its state file when interrupted; the games it began are not counted.
    set_args "$state" "$head" "$base" "$tc" "$elo0" "$elo1" "${new_max:-${max:-40000}}" "$work/scratch.pgn"
    timeout -s INT 5 fastchess "${args[@]}" >/dev/null 2>&1 || true
    [ -f "$state/config.json" ] || { echo "fastchess wrote no state file" >&2; exit 1; }
    local keys=(wins losses draws penta_WW penta_WD penta_WL penta_DD penta_LD penta_LL) i
    for i in "${!keys[@]}"; do
        sed -i "s/\"${keys[$i]}\": *[0-9]*/\"${keys[$i]}\": ${stats[$i]}/" "$state/config.json"
    done
    sed -i "s|\"$work/scratch.pgn\"|\"$out.pgn\"|" "$state/config.json"
    rm -rf "$work"
    gzip -f "$out.pgn"
    echo "# state rebuilt $(date -u +%Y-%m-%dT%H:%MZ) from $base, $name.patch and the PGN's complete pairs: wins losses draws ${stats[*]:0:3}; pairs WW WD WL DD LD LL ${stats[*]:3}" | tee -a "$out.txt"
}

# Prints the games of run OUT (runs/sprt/NAME): a running run's are in OUT.pgn (so are those
# of a run killed before it could compress them), a paused or finished run's in OUT.pgn.gz.
run_pgn() {
    if [ -f "$1.pgn" ]; then cat "$1.pgn"; else zcat "$1.pgn.gz"; fi
}

if [ "${1:-}" = "--pairs" ]; then
    name=${2:?usage: bench/sprt.sh --pairs NAME}
    work=$(mktemp -d)
    run_pgn "runs/sprt/$name" >"$work/run.pgn"
    complete_pairs "$work/run.pgn"
    rm -rf "$work"
    exit 0
fi

if [ "${1:-}" = "--docs" ]; then
    name=${2:?usage: bench/sprt.sh --docs NAME [NOTE]}
    out=runs/sprt/$name dest=docs/sprt state=$state_root/$name
    [ -f "$out.txt" ] || { echo "no run named $name in runs/sprt" >&2; exit 1; }
    mkdir -p "$dest"
    saved=""
    [ ! -f "$state/config.json" ] || saved=" with $(saved_games "$state/config.json") saved games, state in $state"
    # The note goes into the run's own log too, so the next copy keeps it.
    echo "# copied to docs/ $(date -u +%Y-%m-%dT%H:%MZ)${3:+ ($3)}$saved; PGN comments stripped" >>"$out.txt"
    {
        grep '^#' "$out.txt"
        awk '/^Results of/ { buf = ""; keep = 1 }
             keep { buf = buf $0 "\n" }
             /^-----/ && keep { last = buf; keep = 0 }
             /^SPRT .*completed/ { last = last $0 "\n" }
             END { printf "%s", last }' "$out.txt"
    } >"$dest/$name.txt"
    [ ! -f "$out.patch" ] || cp "$out.patch" "$dest/"
    run_pgn "$out" | perl -0pe 's/\s*\{[^}]*\}//g' | gzip -9 >"$dest/$name.pgn.gz"
    ls -l "$dest/$name".*
    exit 0
fi

. bench/lib.sh
require_fastchess
if [ "${1:-}" = "--resume" ]; then
    name=${2:?usage: bench/sprt.sh --resume NAME [max_games]}
    new_max=${3:-}
    out=runs/sprt/$name
    state=$state_root/$name
    [ -f "$state/config.json" ] || rebuild_state "$name"
    if [ -n "$new_max" ]; then
        sed -i "s/\"rounds\": *[0-9]*/\"rounds\": $((new_max / 2))/" "$state/config.json"
        echo "# game cap raised to $(max_games "$state/config.json") $(date -u +%Y-%m-%dT%H:%MZ)" | tee -a "$out.txt"
    fi
    if [ -n "${OUTPOST_SPRT_CONCURRENCY:-}" ]; then # e.g. 1, to leave a core to data generation
        sed -i "s/\"concurrency\": *[0-9]*/\"concurrency\": $OUTPOST_SPRT_CONCURRENCY/" "$state/config.json"
    fi
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
kind="SPRT" netflag=() netnote=""
if [ "${OUTPOST_SPRT_MATCH:-0}" = 1 ]; then
    kind="MATCH" ELO0=match ELO1=match
fi
if [ -n "${OUTPOST_SPRT_EVALFILE:-}" ]; then
    [ -f "$OUTPOST_SPRT_EVALFILE" ] || { echo "no network at $OUTPOST_SPRT_EVALFILE" >&2; exit 1; }
    evalfile=$(realpath "$OUTPOST_SPRT_EVALFILE")
    netflag=(EVALFILE="$evalfile")
    netnote=", network $evalfile (sha256 $(sha256sum "$evalfile" | cut -c1-16))"
fi
head=$(bench/engine_rev.sh)
base_short=$(git rev-parse --short "$BASE")
mkdir -p runs/sprt
name=$(date -u +%Y%m%d-%H%M)-$base_short-$head
out=runs/sprt/$name
state=$state_root/$name
mkdir -p "$state"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git worktree add -q --detach "$work/base" "$BASE"
make -s -C "$work/base" EXE=outpost-base "${netflag[@]}" >/dev/null
cp "$work/base/outpost-base" "$state/"
# Everything the engine's build reads, a network under nets/ included (as a binary patch;
# git diff sees a tracked file only: commit or git add a new network before the run).
git diff --binary "$BASE" -- src include tools nets Makefile >"$out.patch"
git worktree remove --force "$work/base"
make -s EXE="$state/outpost-new" "${netflag[@]}"
{
    echo "# $kind $head vs $base_short, elo0=$ELO0 elo1=$ELO1, tc $TC, at most $MAX_GAMES games$netnote, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "# new bench: $("$state/outpost-new" bench | tail -n 1)"
    echo "# base bench: $("$state/outpost-base" bench | tail -n 1)"
} | tee "$out.txt"
set_args "$state" "$head" "$base_short" "$TC" "$ELO0" "$ELO1" "$MAX_GAMES" "$out.pgn"
run "${args[@]}"
