#!/usr/bin/env bash
# Search speed: `./outpost bench` against `ethereal-chess bench` (Debian package
# ethereal-chess), one after the other in the same run, and their nps ratio.
# Each program searches its own bench positions to its own depth, so the ratio compares
# raw node rates, not strength. Usage: bench/nps_ethereal.sh
set -eu
export PATH="$PATH:/usr/games" # Debian installs the engines there
cd "$(dirname "$0")/.."
make -s
out=$(./outpost bench | tail -n 1)
o_nps=$(echo "$out" | awk '{print $3}')
echo "Outpost:  $out"
if ! command -v ethereal-chess >/dev/null; then
    echo "ethereal-chess not installed (sudo apt-get install ethereal-chess): no comparison"; exit 0
fi
eth=$(ethereal-chess bench 2>&1 | grep -iE 'nps|nodes' | tail -n 3)
e_nps=$(echo "$eth" | grep -i 'nps' | grep -oE '[0-9]+' | tail -n 1)
echo "Ethereal: $(echo "$eth" | tr '\n' ' ')"
awk -v a="$o_nps" -v b="$e_nps" 'BEGIN { printf "nps ratio Outpost/Ethereal: %.2f\n", a / b }'
