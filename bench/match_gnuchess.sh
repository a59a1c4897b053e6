#!/usr/bin/env bash
# A short match against GNU Chess (Debian package gnuchess, UCI mode `gnuchessu`) with
# fastchess from PATH: checks that Outpost plays whole games with no forfeit or illegal
# move. Usage: bench/match_gnuchess.sh [games] [tc]   (defaults: 20 games, 10+0.1)
# Writes runs/match_gnuchess.pgn and runs/match_gnuchess.log.
set -eu
export PATH="$PATH:/usr/games" # Debian installs the engines there
cd "$(dirname "$0")/.."
GAMES=${1:-20}
TC=${2:-10+0.1}
. bench/lib.sh
require_fastchess
GNU=$(command -v gnuchessu || true)
[ -n "$GNU" ] || { echo "gnuchessu not found: sudo apt-get install gnuchess" >&2; exit 1; }
make -s
mkdir -p runs
fastchess -engine cmd=./outpost name=Outpost -engine cmd="$GNU" name=GNUChess \
    -each tc="$TC" option.Hash=16 -rounds $((GAMES / 2)) -games 2 -repeat -concurrency 2 \
    -openings file=tests/data/openings.epd format=epd order=random \
    -pgnout file=runs/match_gnuchess.pgn -log file=runs/match_gnuchess.log level=warn \
    2>&1 | tee runs/match_gnuchess.txt
echo "forfeits/illegal moves in the PGN:"
grep -c -E 'loses on time|illegal move|disconnects|stalls' runs/match_gnuchess.pgn || true
