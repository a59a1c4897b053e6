#!/usr/bin/env bash
# Builds the release archives into dist/ (make release): one per target CPU, each a folder
# outpost-VERSION-TARGET/ holding the engine (static, stripped, the network built in),
# README.md and LICENSE, as .tar.gz for Linux and .zip for Windows, and dist/SHA256SUMS.
# Targets (docs/RELEASES.md says which to pick):
#   linux-x86-64       any 64-bit x86 CPU (the x86-64 baseline: SSE2, no POPCNT)
#   linux-x86-64-v2    SSE4.2, POPCNT (Intel Nehalem 2008 on, AMD Bulldozer 2011 on)
#   linux-x86-64-v3    AVX2, BMI2, POPCNT (Intel Haswell 2013 on, AMD Zen on)
#   linux-x86-64-v4    AVX-512 (Intel Skylake-X / Ice Lake on, AMD Zen 4 on)
#   linux-aarch64      64-bit ARM, armv8-a (Raspberry Pi 3 on, Android phones: DroidFish)
#   windows-x86-64     Windows, the x86-64 baseline
#   windows-x86-64-v2  Windows, SSE4.2, POPCNT
#   windows-x86-64-v3  Windows, AVX2, BMI2
# Every build must give the same bench signature (make release-test checks it).
# Usage: tools/release.sh VERSION   (make release passes include/version.h's, with the commit)
set -eu
cd "$(dirname "$0")/.."
version=${1:?usage: tools/release.sh VERSION}
linux_cc=${RELEASE_CC:-cc}
arm_cc=${RELEASE_ARM_CC:-aarch64-linux-gnu-gcc}
win_cc=${RELEASE_WIN_CC:-x86_64-w64-mingw32-gcc-posix}
evalfile=${EVALFILE:-nets/default.nnue}

missing=()
for tool in "$linux_cc:gcc" "$arm_cc:gcc-aarch64-linux-gnu" "$win_cc:gcc-mingw-w64-x86-64" \
    "zip:zip" "sha256sum:coreutils"; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "make release needs: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
[ -f "$evalfile" ] || { echo "make release: no network at $evalfile (EVALFILE=/path/to/net)" >&2; exit 1; }

# Archive entries get the commit's time and no owner, so the same binaries give the
# same archives.
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 0)
rm -rf dist build/release
mkdir -p dist build/release

# target, compiler, -march, file suffix
targets=(
    "linux-x86-64 $linux_cc x86-64 ''"
    "linux-x86-64-v2 $linux_cc x86-64-v2 ''"
    "linux-x86-64-v3 $linux_cc x86-64-v3 ''"
    "linux-x86-64-v4 $linux_cc x86-64-v4 ''"
    "linux-aarch64 $arm_cc armv8-a ''"
    "windows-x86-64 $win_cc x86-64 .exe"
    "windows-x86-64-v2 $win_cc x86-64-v2 .exe"
    "windows-x86-64-v3 $win_cc x86-64-v3 .exe"
)
for t in "${targets[@]}"; do
    eval "set -- $t"
    target=$1 cc=$2 arch=$3 suffix=$4
    name=outpost-$version-$target
    dir=build/release/$name
    mkdir -p "$dir"
    echo "== $name ($cc -march=$arch)"
    make -s CC="$cc" ARCH="$arch" EVALFILE="$evalfile" LDFLAGS="-static -s" \
        EXE="$dir/$name$suffix" "$dir/$name$suffix"
    cp README.md LICENSE "$dir/"
    touch -d "@$epoch" "$dir" "$dir"/*
    if [ -n "$suffix" ]; then
        (cd build/release && TZ=UTC zip -qrX "../../dist/$name.zip" "$name")
    else
        tar -C build/release --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
            -cf - "$name" | gzip -n >"dist/$name.tar.gz"
    fi
done
(cd dist && sha256sum -- *.tar.gz *.zip >SHA256SUMS)
echo "dist/:"
ls -l dist
