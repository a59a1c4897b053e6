#!/usr/bin/env bash
# Checks the README's option table against the options the engine lists for `uci`
# (options.c's table): the same names in the same order, and for each the same type and,
# for spin and check options, the same default and range. String defaults must begin the
# README's default cell. Usage: tests/check_readme_options.sh ./outpost (a build with the
# default network, as the README describes).
set -u
cd "$(dirname "$0")/.."
engine=${1:-./outpost}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'uci\nquit\n' | "$engine" | sed -n 's/^option name //p' |
    awk '{ i = index($0, " type "); name = substr($0, 1, i - 1); n = split(substr($0, i + 6), f, " ")
           def = ""; range = ""
           for (k = 2; k <= n; k++) {
               if (f[k] == "default") def = f[k + 1]
               if (f[k] == "min") range = f[k + 1] ".." f[k + 3]
           }
           print name "|" f[1] "|" def "|" range }' >"$dir/engine"
# README rows: | `Name` | type | default | range | what it does |
awk -F' *\\| *' '/^## UCI options/ { on = 1; next } /^## / { on = 0 }
    on && $2 ~ /^`[^`]+`$/ && $3 ~ /^(spin|check|string|button)$/ {
        name = substr($2, 2, length($2) - 2); def = $4
        if ($3 == "string") { sub(/^`/, "", def); sub(/`.*/, "", def) }
        print name "|" $3 "|" def "|" $5 }' README.md >"$dir/readme"
if [ ! -s "$dir/engine" ] || [ ! -s "$dir/readme" ]; then
    echo "check_readme_options: no options read (engine: $(wc -l <"$dir/engine"), README: $(wc -l <"$dir/readme"))"
    exit 1
fi
if ! diff "$dir/engine" "$dir/readme" >"$dir/diff"; then
    echo "check_readme_options: README.md's option table differs from the engine's (< engine, > README):"
    cat "$dir/diff"
    exit 1
fi
echo "check_readme_options: $(wc -l <"$dir/engine") options, README.md agrees with the engine"
