#!/usr/bin/env bash
# Gauntlet of Outpost against engines from Debian's packages or built from their public
# repositories (the anchors of ../shared/ANCHORS.md), with fastchess from PATH.
# Usage: bench/gauntlet.sh OPPONENT [games] [tc]   (defaults: 100 games, 10+0.1)
#   OPPONENT: gnuchess | glaurung | toga2 | ethereal | sfNNNN, e.g. sf2000 (Stockfish
#   with UCI_LimitStrength at that UCI_Elo) | weiss | stash | berserk (built outside the
#   repository: the binary named by $WEISS, $STASH or $BERSERK, else weiss, stash or
#   berserk on PATH; Berserk plays with its smallest MoveOverhead, 100 ms)
# Hash 16, one thread each, concurrency 2, openings from tests/data/openings.epd with
# colours swapped per opening. Writes runs/gauntlet/<date>-<opponent>-<commit>.{pgn.gz,txt};
# add the result to docs/STRENGTH.md (newest first) and the ladder in README.md.
# bench/ladder.sh sums runs split across sessions. The .txt's second line gives both
# engines' `bench` nps, measured just before the match, when the opponent has a bench: a
# result against a package engine depends on the machine's speed ratio.
# OUTPOST_ELO=X plays Outpost with UCI_LimitStrength at UCI_Elo X (the calibration of
# issue 34: bench/gauntlet.sh sf1800 with OUTPOST_ELO=1800 should score 35-65 %).
set -eu
export PATH="$PATH:/usr/games" # Debian installs the engines there
cd "$(dirname "$0")/.."
OPP=${1:?usage: bench/gauntlet.sh OPPONENT [games] [tc]}
GAMES=${2:-100}
TC=${3:-10+0.1}
. bench/lib.sh
require_fastchess
case $OPP in
gnuchess) opp=(cmd=gnuchessu name=GNUChess-6.2.7) ;;
glaurung) opp=(cmd=glaurung name=Glaurung-2.2 option.Threads=1) ;;
toga2) opp=(cmd=toga2 "name=Toga-II-3.0" "option.Number of Threads=1") ;;
ethereal) opp=(cmd=ethereal-chess name=Ethereal-12.00 option.Threads=1) ;;
weiss) opp=("cmd=${WEISS:-weiss}" name=Weiss-2.0 option.Threads=1) ;;
stash) opp=("cmd=${STASH:-stash}" name=Stash-37 option.Threads=1) ;;
berserk) opp=("cmd=${BERSERK:-berserk}" name=Berserk-8.5.1 option.Threads=1 option.MoveOverhead=100) ;;
sf[0-9]*) opp=(cmd=stockfish "name=Stockfish-15.1-Elo${OPP#sf}" option.Threads=1 option.UCI_LimitStrength=true "option.UCI_Elo=${OPP#sf}") ;;
*) echo "unknown opponent $OPP" >&2; exit 1 ;;
esac
command -v "${opp[0]#cmd=}" >/dev/null || { echo "${opp[0]#cmd=} not found: apt-get install the engine's package (see README), or build the anchor (../shared/ANCHORS.md) and name it in \$WEISS, \$STASH or \$BERSERK" >&2; exit 1; }
mine=()
[ -n "${OUTPOST_ELO:-}" ] && mine=(option.UCI_LimitStrength=true "option.UCI_Elo=$OUTPOST_ELO")
prepare_engine
mkdir -p runs/gauntlet
out=runs/gauntlet/$(date -u +%Y%m%d-%H%M)-$OPP-$commit${OUTPOST_ELO:+-elo$OUTPOST_ELO}
# Kills the processes of group $1 whose parent is gone. GNU Chess's UCI adapter can die on
# its own assertion and leave its engine process behind, burning CPU under the rest of the
# match and holding the log pipe open after fastchess ends.
reap_orphans()
{
    ps -e -o pid=,ppid=,pgid= | awk -v g="$1" '
        { pgid[$1] = $3; ppid[$1] = $2 }
        END { for (p in pgid) if (pgid[p] == g && p != g && pgid[ppid[p]] != g) print p }' |
        xargs -r kill 2>/dev/null || true
}
{
    echo "# Outpost $commit vs ${opp[1]#name=}, $GAMES games, tc $TC, $(date -u +%Y-%m-%dT%H:%MZ)"
    case $OPP in
    ethereal | weiss | stash | berserk | sf[0-9]*)
        o_nps=$(bench_nps "$work/outpost")
        b_nps=$(bench_nps "${opp[0]#cmd=}")
        ratio=$(awk -v a="$o_nps" -v b="$b_nps" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "n/a" }')
        echo "# bench nps: Outpost $o_nps, ${opp[1]#name=} $b_nps (ratio $ratio)"
        ;;
    esac
    # A process group of its own (setsid) holds fastchess and every engine it starts.
    setsid fastchess -engine cmd="$work/outpost" "name=Outpost${OUTPOST_ELO:+-Elo$OUTPOST_ELO}" "${mine[@]}" -engine "${opp[@]}" \
        -each tc="$TC" option.Hash=16 -rounds $((GAMES / 2)) -games 2 -repeat -concurrency 2 \
        -openings file=tests/data/openings.epd format=epd order=random -recover \
        -pgnout file="$out.pgn" 2>&1 &
    match=$!
    while kill -0 "$match" 2>/dev/null; do
        reap_orphans "$match"
        sleep 2
    done
    wait "$match" || true
    kill -- -"$match" 2>/dev/null || true
} | tee "$out.txt"
gzip -f "$out.pgn"
rm -f config.json
