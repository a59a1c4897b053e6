#!/usr/bin/env bash
# Makes sure the test dependencies are present: installs libcmocka-dev with apt-get when
# it can (as root, or with sudo), else says exactly what to install.
set -u
have_cmocka() {
    printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' \
        | ${CC:-cc} -x c - -o /dev/null -lcmocka >/dev/null 2>&1
}
have_cmocka && exit 0
echo "cmocka (libcmocka-dev) is missing; trying to install it with apt-get"
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else SUDO="none"; fi
if [ "$SUDO" != none ] && command -v apt-get >/dev/null; then
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libcmocka-dev >/dev/null
fi
have_cmocka && exit 0
echo "error: cannot build against cmocka. Install it with: sudo apt-get install libcmocka-dev" >&2
exit 1
