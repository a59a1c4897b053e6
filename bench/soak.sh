#!/usr/bin/env bash
# Soak test: many fast games with fastchess (from PATH) against a packaged engine, then a
# count of every fault per player from the PGN: crashes/disconnects, stalls, time
# forfeits and illegal moves. Exits non-zero if Outpost has any.
# Usage: bench/soak.sh [games] [tc] [name]   (defaults: 1000 games, 1+0.01, soak)
#   OPPONENT=gnuchess|stockfish|glaurung|toga2|ethereal   (default stockfish, limited to
#   UCI_Elo=$ELO, default 2000)
#   THREADS=N: Outpost's Threads (default 1); CONCURRENCY=N games at once (default 2; with
#   THREADS=2 use 1, so that each engine has the cores it asks for)
# Writes runs/<name>.pgn.gz and runs/<name>.txt (the summary and fault counts); fastchess's
# whole output (every game and warning) goes to build/<name>.full.txt.
set -eu
export PATH="$PATH:/usr/games" # Debian installs the engines there
cd "$(dirname "$0")/.."
GAMES=${1:-1000}
TC=${2:-1+0.01}
NAME=${3:-soak}
OPPONENT=${OPPONENT:-stockfish}
. bench/lib.sh
require_fastchess
case $OPPONENT in
stockfish) opp=(cmd=stockfish "name=Stockfish-${ELO:-2000}" option.UCI_LimitStrength=true "option.UCI_Elo=${ELO:-2000}" option.Threads=1) ;;
gnuchess) opp=(cmd=gnuchessu name=GNUChess) ;;
glaurung) opp=(cmd=glaurung name=Glaurung option.Threads=1) ;;
toga2) opp=(cmd=toga2 name=Toga2 "option.Number of Threads=1") ;;
ethereal) opp=(cmd=ethereal-chess name=Ethereal option.Threads=1) ;;
*) echo "unknown OPPONENT $OPPONENT" >&2; exit 1 ;;
esac
command -v "${opp[0]#cmd=}" >/dev/null || { echo "${opp[0]#cmd=} not found: see README (apt-get install)" >&2; exit 1; }
make -s
mkdir -p runs
mkdir -p build
pgn=build/$NAME.pgn full=build/$NAME.full.txt txt=runs/$NAME.txt
rm -f "$pgn"
THREADS=${THREADS:-1}
CONCURRENCY=${CONCURRENCY:-2}
echo "# $(date -u +%Y-%m-%dT%H:%MZ) commit $(git rev-parse --short HEAD) games $GAMES tc $TC vs ${opp[1]#name=}, Threads $THREADS, concurrency $CONCURRENCY" | tee "$txt"
fastchess -engine cmd=./outpost name=Outpost option.Threads="$THREADS" -engine "${opp[@]}" \
    -each tc="$TC" option.Hash=16 -rounds $((GAMES / 2)) -games 2 -repeat -concurrency "$CONCURRENCY" \
    -openings file=tests/data/openings.epd format=epd order=random -recover \
    -pgnout file="$pgn" 2>&1 | tee "$full" | grep --line-buffered -E '^Finished game' | awk 'NR % 50 == 0' || true
rm -f config.json
# The last summary block, then fastchess's warnings counted per engine.
awk '/^Results of/ { block = "" } /^Results of/, /^-----/ { block = block $0 "\n" } END { printf "%s", block }' "$full" | tee -a "$txt"
echo "fastchess warnings per engine (e.g. a bestmove that is not the PV's first move):" | tee -a "$txt"
grep '^Warning;' "$full" | sed -E 's/.* from (.*)$/\1/' | sort | uniq -c | tee -a "$txt"
grep -q '^Warning;.* from Outpost$' "$full" || echo "      0 Outpost" | tee -a "$txt"
grep -h '^Total Time' "$full" | tee -a "$txt"
echo "PGN terminations (fastchess writes time forfeit / illegal move / abandoned for faults):" | tee -a "$txt"
grep -h '^\[Termination' "$pgn" | sort | uniq -c | tee -a "$txt"
gzip -9 -c "$pgn" > "runs/$NAME.pgn.gz"

# Every game names its players in the tags and its end in the last comment, e.g.
# "{White loses on time (3ms overrun)}"; map the colour back to the player.
awk '
/^\[White "/ { w = $0; sub(/^\[White "/, "", w); sub(/"\]$/, "", w) }
/^\[Black "/ { b = $0; sub(/^\[Black "/, "", b); sub(/"\]$/, "", b) }
/^\[Event / { games++ }
{
    n = split("loses on time|makes an illegal move|disconnects|connection stalls", kinds, "|")
    for (i = 1; i <= n; i++) {
        if (index($0, kinds[i])) {
            who = index($0, "White") && (!index($0, "Black") || index($0, "White") < index($0, "Black")) ? w : b
            count[who, kinds[i]]++
            players[who] = 1
        }
    }
}
END {
    printf "games in PGN: %d\n", games
    split("loses on time|makes an illegal move|disconnects|connection stalls", kinds, "|")
    players["Outpost"] = 1
    for (p in players) {
        printf "%s:", p
        for (i = 1; i <= 4; i++) printf " %s %d;", kinds[i], count[p, kinds[i]]
        printf "\n"
        if (p == "Outpost") for (i = 1; i <= 4; i++) bad += count[p, kinds[i]]
    }
    exit bad > 0
}' "$pgn" | tee -a "$txt"
