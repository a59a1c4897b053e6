#!/usr/bin/env bash
# The effect of tablebases on play (issue 35): Outpost with SyzygyPath against the same
# build without, from the endgames of bench/endgames.epd, with fastchess from PATH.
# Usage: bench/syzygy_match.sh TABLES_DIR [games] [tc]   (defaults: 100 games, 8+0.08)
# bench/endgames.epd: 50 positions of tests/data/oracle.syzygy.epd (3-4 pieces, so the
# tables know every result) chosen for technique: 34 won (two or three each of KBNvK,
# KBBvK, KQvKR, KRvKB, KRvKN, KBPvK, KNPvK, KPvKP, KPPvK, KRPvK, KQvKP, KRvKP, KBvKP,
# KNvKP, KPvK, KQvKB, KQvKN) and 16 drawn (one of each). Each is played twice, colours
# swapped. Games are played out (no adjudication: a resign rule would end the very
# games the tables are for). Hash 16, one thread each, concurrency 2. Writes
# runs/syzygy/<date>-<commit>.{pgn.gz,txt}; record the result in docs/STRENGTH.md.
set -eu
cd "$(dirname "$0")/.."
TB=${1:?usage: bench/syzygy_match.sh TABLES_DIR [games] [tc]}
GAMES=${2:-100}
TC=${3:-8+0.08}
. bench/lib.sh
require_fastchess
[ -d "$TB" ] || { echo "no directory $TB" >&2; exit 1; }
TB=$(cd "$TB" && pwd)
prepare_engine
mkdir -p runs/syzygy
out=runs/syzygy/$(date -u +%Y%m%d-%H%M)-$commit
{
    echo "# Outpost $commit with SyzygyPath=$TB vs without, $GAMES games, tc $TC, $(date -u +%Y-%m-%dT%H:%MZ)"
    fastchess -engine cmd="$work/outpost" name=tables "option.SyzygyPath=$TB" \
        -engine cmd="$work/outpost" name=no-tables \
        -each tc="$TC" option.Hash=16 option.Threads=1 -rounds $((GAMES / 2)) -games 2 -repeat \
        -concurrency "${OUTPOST_CONCURRENCY:-2}" -openings file=bench/endgames.epd format=epd order=sequential \
        -pgnout file="$out.pgn" 2>&1
} | tee "$out.txt" | grep -E '^(Results|Elo|Games|Ptnml|LOS|Finished game [0-9]*0 )' || true
gzip -f "$out.pgn"
echo "results in $out.txt"
