#!/usr/bin/env bash
# The engine's command line outside UCI: --version prints the version of
# include/version.h (a development version followed by its commit), --help and -h list
# every subcommand main.c handles, and all exit 0 without reading stdin.
# Usage: tests/cli_test.sh OUTPOST   (make test)
set -u
cd "$(dirname "$0")/.."
engine=${1:?usage: tests/cli_test.sh OUTPOST}
fail=0
version=$(sed -n 's/^#define OUTPOST_VERSION "\(.*\)"/\1/p' include/version.h)
got=$(timeout 10 "$engine" --version </dev/null)
case $version in
*-dev) [[ $got =~ ^"Outpost $version"(-[0-9a-f]{7}(\+dirty)?)?$ ]] ;;
*) [ "$got" = "Outpost $version" ] ;;
esac || { echo "FAILED: --version said '$got' (include/version.h: $version)"; fail=1; }
for flag in --help -h; do
    out=$(timeout 10 "$engine" $flag </dev/null) || { echo "FAILED: $flag exited non-zero"; fail=1; }
    # Every subcommand main.c compares argv[1] with must be listed.
    for cmd in $(grep -o 'strcmp(argv\[1\], "[a-z-]*")\|strncmp(argv\[1\], "[a-z]*"' src/main.c | grep -o '"[a-z-]*"' | tr -d '"' | sort -u); do
        case $cmd in version | -h | --help) continue ;; esac # synonyms, and the flag itself
        grep -q -- "outpost.*$cmd" <<<"$out" || { echo "FAILED: $flag does not list '$cmd'"; fail=1; }
    done
done
[ $fail -eq 0 ] && echo "cli test: --version '$got', --help lists every subcommand"
exit $fail
