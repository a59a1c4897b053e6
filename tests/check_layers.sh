#!/usr/bin/env bash
# Checks that the modules of src/ call each other in one direction only: from the object
# file of each source, the functions it defines and the ones it calls from other files
# (nm) make a graph "caller -> callee", which must hold no cycle (tsort finds them). With
# -v it prints the graph. Exit status 1 and the files of each cycle when one exists.
set -u
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
CC=${CC:-cc}
for f in src/*.c; do
    b=$(basename "$f" .c)
    # -O0 and no LTO: each call to another file stays a symbol reference.
    $CC -std=c17 -O0 -march=native -Iinclude -Ibuild/gen -Ibuild/net/none -pthread -c "$f" -o "$dir/$b.o" || exit 2
    nm --defined-only -g "$dir/$b.o" | awk -v m="$b" 'NF == 3 && $2 ~ /[TDBR]/ { print $3, m }' >>"$dir/defs"
    nm -u "$dir/$b.o" | awk -v m="$b" '{ print $NF, m }' >>"$dir/uses"
done
# Edges: caller module -> module defining the symbol (calls within a file do not count).
awk 'NR == FNR { def[$1] = $2; next } ($1 in def) && def[$1] != $2 { print $2, def[$1] }' \
    "$dir/defs" "$dir/uses" | sort -u >"$dir/edges"
[ "${1:-}" = -v ] && cat "$dir/edges"
if ! tsort "$dir/edges" >/dev/null 2>"$dir/loops"; then
    echo "check_layers: src/ modules that call each other in a cycle:"
    grep -v '^tsort: .*input contains a loop:' "$dir/loops" | sed 's/^tsort: /  /'
    exit 1
fi
echo "check_layers: $(wc -l <"$dir/edges") calls between $(ls src/*.c | wc -l) modules, no cycle"
