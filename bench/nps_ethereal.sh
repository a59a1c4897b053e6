#!/usr/bin/env bash
# Search speed: `./outpost bench` against `ethereal-chess bench` (Debian package
# ethereal-chess), one after the other in the same run, and their nps ratio.
# Each program searches its own bench positions to its own depth, so the ratio compares
# raw node rates, not strength. Usage: bench/nps_ethereal.sh
set -eu
export PATH="$PATH:/usr/games" # Debian installs the engines there
cd "$(dirname "$0")/.."
. bench/lib.sh
make -s
o_nps=$(bench_nps ./outpost)
echo "Outpost:  $o_nps nps"
if ! command -v ethereal-chess >/dev/null; then
    echo "ethereal-chess not installed (sudo apt-get install ethereal-chess): no comparison"; exit 0
fi
e_nps=$(bench_nps ethereal-chess)
echo "Ethereal: $e_nps nps"
awk -v a="$o_nps" -v b="$e_nps" 'BEGIN {
    if (a + 0 > 0 && b + 0 > 0) printf "nps ratio Outpost/Ethereal: %.2f\n", a / b
    else print "nps ratio Outpost/Ethereal: n/a (a bench gave no nps)" }'
