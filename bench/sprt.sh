#!/usr/bin/env bash
# SPRT self-play with fastchess (from PATH): the working tree's build against a base
# build made from a git ref, 10+0.1, Hash 16, one thread, concurrency 2, openings from
# tests/data/openings.epd with colours swapped per opening.
# Usage: bench/sprt.sh BASE_REF [elo0 elo1] [tc]   (defaults: 0 5 10+0.1)
# Writes docs/sprt/<date>-<time>-<base>-<head>.{pgn.gz,txt}; the last lines give the SPRT verdict.
# Bounds: 0 5 for small changes; a change expected to gain a lot (a retune) may use
# wider ones such as 0 20, which end sooner; say which in the commit.
set -eu
export PATH="$PATH:/usr/games"
cd "$(dirname "$0")/.."
BASE=${1:?usage: bench/sprt.sh BASE_REF [elo0 elo1] [tc]}
ELO0=${2:-0}
ELO1=${3:-5}
TC=${4:-10+0.1}
command -v fastchess >/dev/null || { echo "fastchess not found in PATH (build it from github.com/Disservin/fastchess)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git worktree add -q --detach "$work/base" "$BASE"
make -s -C "$work/base" EXE=outpost-base >/dev/null
cp "$work/base/outpost-base" "$work/"
git worktree remove --force "$work/base"
make -s EXE="$work/outpost-new"
head=$(git rev-parse --short HEAD)$(git diff --quiet || echo "+dirty")
base_short=$(git rev-parse --short "$BASE")
mkdir -p docs/sprt
out=docs/sprt/$(date -u +%Y%m%d-%H%M)-$base_short-$head
{
    echo "# SPRT $head vs $base_short, elo0=$ELO0 elo1=$ELO1, tc $TC, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "# new bench: $("$work/outpost-new" bench | tail -n 1)"
    echo "# base bench: $("$work/outpost-base" bench | tail -n 1)"
    fastchess -engine cmd="$work/outpost-new" name="new-$head" -engine cmd="$work/outpost-base" name="base-$base_short" \
        -each tc="$TC" option.Hash=16 option.Threads=1 -rounds 20000 -games 2 -repeat -concurrency 2 \
        -openings file=tests/data/openings.epd format=epd order=random \
        -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 -recover \
        -pgnout file="$out.pgn" 2>&1
} | tee "$out.txt"
gzip -f "$out.pgn"
rm -f config.json
