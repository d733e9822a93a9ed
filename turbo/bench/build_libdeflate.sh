#!/bin/sh
# build_libdeflate.sh DEST [SRC] -- libdeflate, built outside the repository,
# as a comparator for turbo/bench/optimal_bench.sh
#
# Builds libdeflate's static library with its own CMake build (Release,
# which libdeflate's CMakeLists.txt defines as -O2 -DNDEBUG; CC from the
# environment, default cc) and installs it under DEST:
#   DEST/include/libdeflate.h  DEST/lib/libdeflate.a  DEST/SOURCE.txt
# (SOURCE.txt says what was built, from where, and with which compiler;
# optimal_bench.sh prints it.)  DEST must be outside this repository
# (e.g. /work/comparators/libdeflate-1.25); DEST/src and DEST/build hold the
# sources and the CMake build.
#
# SRC (default /work/.mirror/ebiggers+libdeflate/repo) is one of:
#   - a git directory (bare or not) of libdeflate's public repository: the
#     tag $LIBDEFLATE_TAG (default v1.25) is taken with 'git archive'; if
#     that tag is missing, the newest v* tag (sort -V), and the script says so;
#   - a folder of libdeflate sources (with CMakeLists.txt and libdeflate.h).
#
# If the sources cannot be had or do not build, it falls back to Debian's
# package (apt-get install -y libdeflate-dev: version 1.14 on Debian 12),
# copying its libdeflate.h and libdeflate.a into DEST, and says so (in its
# output and in DEST/SOURCE.txt).  LIBDEFLATE_NO_FALLBACK=1 turns the
# fallback off (exit 1 instead).
set -eu

[ $# -ge 1 ] && [ $# -le 2 ] || {
    sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" | sed '$d' >&2; exit 2; }
DEST=$1
SRC=${2:-/work/.mirror/ebiggers+libdeflate/repo}
TAG=${LIBDEFLATE_TAG:-v1.25}
CC=${CC:-cc}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
case $DEST/ in
    "$ROOT"/*) echo "build_libdeflate: DEST must be outside the repository ($ROOT)" >&2
               exit 2 ;;
esac

say() { echo "build_libdeflate: $*" >&2; }

# from_source: fills DEST/src, builds, installs; non-zero on any failure
from_source() {
    rm -rf "$DEST/src" "$DEST/build" "$DEST/include" "$DEST/lib"
    mkdir -p "$DEST/src"
    origin=
    if [ -f "$SRC/CMakeLists.txt" ] && [ -f "$SRC/libdeflate.h" ]; then
        cp -R "$SRC/." "$DEST/src/"
        origin="source folder $SRC"
    elif git --git-dir="$SRC" rev-parse --git-dir >/dev/null 2>&1 ||
         git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
        if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
            GD=$(git -C "$SRC" rev-parse --absolute-git-dir)
        else
            GD=$SRC
        fi
        if ! git --git-dir="$GD" rev-parse -q --verify "refs/tags/$TAG" >/dev/null; then
            newest=$(git --git-dir="$GD" tag -l 'v*' | sort -V | tail -n 1)
            [ -n "$newest" ] || { say "no tag $TAG and no v* tag in $GD"; return 1; }
            say "NOTE: no tag $TAG in $GD; using the newest tag, $newest"
            TAG=$newest
        fi
        commit=$(git --git-dir="$GD" rev-parse "$TAG^{commit}")
        git --git-dir="$GD" archive --format=tar "$commit" | tar -x -C "$DEST/src"
        origin="git $GD, tag $TAG, commit $commit"
    else
        say "SRC is neither a libdeflate source folder nor a git directory: $SRC"
        return 1
    fi
    command -v cmake >/dev/null 2>&1 || { say "no cmake"; return 1; }
    say "building libdeflate from $origin"
    # Release: libdeflate's CMakeLists.txt sets CMAKE_C_FLAGS_RELEASE to
    # "-O2 -DNDEBUG"; only the static library, no programs
    CC=$CC cmake -S "$DEST/src" -B "$DEST/build" \
        -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$DEST" -DCMAKE_INSTALL_LIBDIR=lib \
        -DLIBDEFLATE_BUILD_STATIC_LIB=ON -DLIBDEFLATE_BUILD_SHARED_LIB=OFF \
        -DLIBDEFLATE_BUILD_GZIP=OFF -DLIBDEFLATE_BUILD_TESTS=OFF \
        >"$DEST/cmake-configure.log" 2>&1 || {
        say "cmake configure failed (see $DEST/cmake-configure.log)"; return 1; }
    cmake --build "$DEST/build" --verbose -j 2 >"$DEST/cmake-build.log" 2>&1 || {
        say "cmake build failed (see $DEST/cmake-build.log)"; return 1; }
    cmake --install "$DEST/build" >"$DEST/cmake-install.log" 2>&1 || {
        say "cmake install failed (see $DEST/cmake-install.log)"; return 1; }
    [ -f "$DEST/lib/libdeflate.a" ] && [ -f "$DEST/include/libdeflate.h" ] || {
        say "no libdeflate.a or libdeflate.h after the install"; return 1; }
    version=$(sed -n 's/^#define LIBDEFLATE_VERSION_STRING[ \t]*"\(.*\)"/\1/p' \
              "$DEST/include/libdeflate.h")
    # the flags the library was compiled with, as CMake ran them
    flags=$(grep -m 1 -o ' -O[0-9s][^ ]* -DNDEBUG' "$DEST/cmake-build.log" || true)
    {
        echo "libdeflate $version"
        echo "built from: $origin"
        echo "build: its CMake, CMAKE_BUILD_TYPE=Release (C flags:${flags:- see cmake-build.log}), static library only"
        echo "compiler: $CC: $($CC --version 2>/dev/null | head -n 1)"
        echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    } >"$DEST/SOURCE.txt"
    return 0
}

from_debian() {
    rm -rf "$DEST/include" "$DEST/lib"
    if ! dpkg -s libdeflate-dev >/dev/null 2>&1; then
        say "installing Debian's libdeflate-dev (apt-get)"
        apt-get install -y libdeflate-dev >"$DEST/apt.log" 2>&1 ||
            { apt-get update >>"$DEST/apt.log" 2>&1 &&
              apt-get install -y libdeflate-dev >>"$DEST/apt.log" 2>&1; } || {
            say "apt-get install libdeflate-dev failed (see $DEST/apt.log)"; return 1; }
    fi
    a=$(dpkg -L libdeflate-dev | grep '/libdeflate\.a$' | head -n 1)
    h=$(dpkg -L libdeflate-dev | grep '/libdeflate\.h$' | head -n 1)
    [ -n "$a" ] && [ -n "$h" ] || { say "libdeflate-dev has no libdeflate.a or .h"; return 1; }
    mkdir -p "$DEST/include" "$DEST/lib"
    cp "$h" "$DEST/include/"
    cp "$a" "$DEST/lib/"
    {
        echo "libdeflate $(dpkg-query -W -f '${Version}' libdeflate-dev) (Debian package libdeflate-dev; FALLBACK: the sources could not be built)"
        echo "built from: Debian's binary package ($a, $h)"
        echo "build: Debian's flags (not ours)"
        echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    } >"$DEST/SOURCE.txt"
    return 0
}

if from_source; then
    say "done: $(head -n 1 "$DEST/SOURCE.txt") in $DEST"
elif [ "${LIBDEFLATE_NO_FALLBACK:-0}" = 1 ]; then
    say "FAILED to build from $SRC (no fallback: LIBDEFLATE_NO_FALLBACK=1)"
    exit 1
else
    say "FALLBACK: building from $SRC failed; using Debian's libdeflate-dev"
    from_debian || { say "FAILED: the fallback failed too"; exit 1; }
    say "done: $(head -n 1 "$DEST/SOURCE.txt") in $DEST"
fi
cat "$DEST/SOURCE.txt"
