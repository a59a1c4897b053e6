#!/usr/bin/env bash
# Sums Outpost's results per opponent over any number of PGN files (plain or .gz), so
# that gauntlet runs split across sessions can be combined: games, W/D/L, score and Elo
# with a 95 % error bar (from the per-game score variance, trinomial model).
# Usage: bench/ladder.sh runs/gauntlet/*-glaurung-*.pgn.gz ...
set -eu
[ $# -gt 0 ] || { echo "usage: bench/ladder.sh PGN..." >&2; exit 2; }
for f in "$@"; do
    case $f in *.gz) zcat "$f" ;; *) cat "$f" ;; esac
done | awk '
/^\[White "/ { white = substr($0, 9, length($0) - 10) }
/^\[Black "/ { black = substr($0, 9, length($0) - 10) }
/^\[Result "/ {
    r = substr($0, 10, length($0) - 11)
    if (white ~ /^Outpost/) { opp = black; s = r == "1-0" ? 1 : r == "0-1" ? 0 : r == "1/2-1/2" ? 0.5 : -1 }
    else if (black ~ /^Outpost/) { opp = white; s = r == "0-1" ? 1 : r == "1-0" ? 0 : r == "1/2-1/2" ? 0.5 : -1 }
    else next
    if (s < 0) next # unfinished game
    n[opp]++; sum[opp] += s; sq[opp] += s * s
    if (s == 1) w[opp]++; else if (s == 0) l[opp]++; else d[opp]++
}
function elo(p) { return p <= 0 ? -999 : p >= 1 ? 999 : -400 * log(1 / p - 1) / log(10) }
END {
    printf "%-28s %6s %15s %8s %20s\n", "opponent", "games", "W / D / L", "score", "Elo (95 %)"
    for (o in n) {
        m = sum[o] / n[o]; var = sq[o] / n[o] - m * m; se = sqrt(var / n[o])
        lo = elo(m - 1.96 * se); hi = elo(m + 1.96 * se)
        printf "%-28s %6d %5d / %3d / %3d %7.1f%% %+7.0f [%+.0f, %+.0f]\n", o, n[o], w[o], d[o], l[o], 100 * m, elo(m), lo, hi
    }
}'
