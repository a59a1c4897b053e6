#!/usr/bin/env bash
# Perft speed, single thread: Outpost against Stockfish (Debian package `stockfish`,
# whose `go perft N` has the same bulk-counting rules) on the same positions, in one run.
# Usage: bench/perft_speed.sh [./outpost]
set -eu
export PATH="$PATH:/usr/games" # Debian installs the engines there
cd "$(dirname "$0")/.."
ENGINE=${1:-./outpost}
[ -x "$ENGINE" ] || make -s
POSITIONS=(
    "6|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "5|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "7|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    "5|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
    "5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
)
ms_now() { date +%s%3N; }
total_o=0 time_o=0 total_s=0 time_s=0
have_sf=0; command -v stockfish >/dev/null && have_sf=1
printf '%-8s %-6s %14s %10s %12s' position depth nodes outpost_ms outpost_Mnps
[ $have_sf = 1 ] && printf ' %12s %12s' stockfish_ms stockfish_Mnps
echo
i=0
for entry in "${POSITIONS[@]}"; do
    i=$((i + 1)); depth=${entry%%|*}; fen=${entry#*|}
    t0=$(ms_now)
    nodes=$("$ENGINE" perft "$depth" "$fen" | sed -n 's/^Nodes searched: //p')
    t1=$(ms_now); dt=$((t1 - t0)); [ $dt -gt 0 ] || dt=1
    total_o=$((total_o + nodes)); time_o=$((time_o + dt))
    printf '%-8s %-6s %14s %10s %12s' "#$i" "$depth" "$nodes" "$dt" "$((nodes / dt / 1000))"
    if [ $have_sf = 1 ]; then
        t0=$(ms_now)
        sf=$(printf 'position fen %s\ngo perft %s\nquit\n' "$fen" "$depth" | stockfish | sed -n 's/^Nodes searched: //p')
        t1=$(ms_now); ds=$((t1 - t0)); [ $ds -gt 0 ] || ds=1
        [ "$sf" = "$nodes" ] || echo " MISMATCH: stockfish counts $sf"
        total_s=$((total_s + sf)); time_s=$((time_s + ds))
        printf ' %12s %12s' "$ds" "$((sf / ds / 1000))"
    fi
    echo
done
echo "Outpost:   $total_o nodes in $time_o ms = $((total_o / time_o / 1000)) Mnps"
if [ $have_sf = 1 ]; then
    echo "Stockfish: $total_s nodes in $time_s ms = $((total_s / time_s / 1000)) Mnps"
    awk -v a="$time_o" -v b="$time_s" 'BEGIN { printf "ratio Outpost/Stockfish (speed): %.2f\n", b / a }'
else
    echo "stockfish not installed (sudo apt-get install stockfish): no comparison"
fi
