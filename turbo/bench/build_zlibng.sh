#!/bin/sh
# build_zlibng.sh DEST [SRC] -- zlib-ng in zlib-compatible mode, built
# outside the repository, as a comparator for turbo/bench/run_speed.sh and
# turbo/bench/small_bench.sh
#
# Builds two static libraries with zlib-ng's own CMake (compat API,
# ZLIB_COMPAT=ON, C flags "$ZLIBNG_CFLAGS", default "-O2 -DNDEBUG"; CC from
# the environment, default cc):
#   DEST/portable/libz.a  WITH_OPTIM=OFF, no runtime CPU detection: plain C,
#                         the fair match for zlib-turbo's default build
#   DEST/native/libz.a    WITH_OPTIM=ON, runtime CPU detection: zlib-ng's
#                         optimised build (SSE2 .. AVX-512, VPCLMULQDQ code,
#                         chosen at run time), the match for `--simd`
# each beside its zlib.h, zconf.h and zlib_name_mangling.h, and DEST/SOURCE.txt (what was built,
# from where, with which compiler).  DEST must be outside this repository
# (e.g. /work/comparators/zlib-ng).
#
# zlib-ng has no deflateBound_z() and deflateUsed() (zlib 1.3.2 API), which
# the harness's function table (turbo/harness/zapi_list.h) names: a small
# object with two stubs that abort is added to each libz.a.  The benchmarks'
# inflate operations never call them.
#
# SRC (default /work/.mirror/zlib-ng+zlib-ng/repo) is a git directory of
# zlib-ng's public repository (its HEAD, or $ZLIBNG_REF, is taken with
# 'git archive') or a folder of zlib-ng sources.
set -eu

[ $# -ge 1 ] && [ $# -le 2 ] || {
    sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" | sed '$d' >&2; exit 2; }
DEST=$1
SRC=${2:-/work/.mirror/zlib-ng+zlib-ng/repo}
REF=${ZLIBNG_REF:-HEAD}
CC=${CC:-cc}
FLAGS=${ZLIBNG_CFLAGS:--O2 -DNDEBUG}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
case $DEST/ in
    "$ROOT"/*) echo "build_zlibng: DEST must be outside the repository ($ROOT)" >&2
               exit 2 ;;
esac
say() { echo "build_zlibng: $*" >&2; }

rm -rf "$DEST/src"
mkdir -p "$DEST/src"
if [ -f "$SRC/CMakeLists.txt" ] && [ -f "$SRC/zlib.h.in" ]; then
    cp -R "$SRC/." "$DEST/src/"
    origin="source folder $SRC"
else
    if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
        GD=$(git -C "$SRC" rev-parse --absolute-git-dir)
    else
        GD=$SRC
    fi
    commit=$(git --git-dir="$GD" rev-parse "$REF^{commit}") || {
        say "no zlib-ng sources or git directory at $SRC"; exit 1; }
    git --git-dir="$GD" archive --format=tar "$commit" | tar -x -C "$DEST/src"
    desc=$(git --git-dir="$GD" describe --tags "$commit" 2>/dev/null || echo "$commit")
    origin="git $GD, $desc, commit $commit"
fi

# the two stubs, compiled once
cat >"$DEST/stubs.c" <<'EOF'
/* zlib 1.3.2 functions zlib-ng lacks; the benchmarks never call them */
#include <stdlib.h>
#include <stddef.h>
size_t deflateBound_z(void *strm, size_t len) { (void)strm; (void)len; abort(); }
int deflateUsed(void *strm, int *bits) { (void)strm; (void)bits; abort(); }
EOF
$CC $FLAGS -c "$DEST/stubs.c" -o "$DEST/stubs.o"

build() {   # build NAME cmake-options...
    name=$1; shift
    rm -rf "$DEST/build-$name" "$DEST/$name"
    say "configuring $name"
    CC=$CC cmake -S "$DEST/src" -B "$DEST/build-$name" \
        -DZLIB_COMPAT=ON -DBUILD_SHARED_LIBS=OFF -DWITH_NATIVE_INSTRUCTIONS=OFF \
        -DZLIB_ENABLE_TESTS=OFF -DZLIBNG_ENABLE_TESTS=OFF -DWITH_GTEST=OFF \
        -DCMAKE_BUILD_TYPE=None "-DCMAKE_C_FLAGS=$FLAGS" "$@" \
        >"$DEST/cmake-$name.log" 2>&1 || {
        say "cmake configure ($name) failed: $DEST/cmake-$name.log"; exit 1; }
    say "building $name"
    cmake --build "$DEST/build-$name" -j 2 >>"$DEST/cmake-$name.log" 2>&1 || {
        say "cmake build ($name) failed: $DEST/cmake-$name.log"; exit 1; }
    mkdir -p "$DEST/$name"
    cp "$DEST/build-$name/libz.a" "$DEST/build-$name/zlib.h" \
       "$DEST/build-$name/zconf.h" "$DEST/$name/"
    for h in zlib_name_mangling.h; do   # included by its zconf.h
        [ ! -f "$DEST/build-$name/$h" ] || cp "$DEST/build-$name/$h" "$DEST/$name/"
    done
    ar rcs "$DEST/$name/libz.a" "$DEST/stubs.o"
}
build portable -DWITH_OPTIM=OFF -DWITH_RUNTIME_CPU_DETECTION=OFF
build native -DWITH_OPTIM=ON -DWITH_RUNTIME_CPU_DETECTION=ON

version=$(sed -n 's/^#define ZLIBNG_VERSION[ \t]*"\(.*\)"/\1/p' "$DEST/native/zlib.h")
{
    echo "zlib-ng $version (compat API)"
    echo "built from: $origin"
    echo "build: its CMake, ZLIB_COMPAT=ON, C flags $FLAGS, static;"
    echo "  portable: WITH_OPTIM=OFF WITH_RUNTIME_CPU_DETECTION=OFF"
    echo "  native:   WITH_OPTIM=ON  WITH_RUNTIME_CPU_DETECTION=ON"
    echo "  + stubs.o (deflateBound_z, deflateUsed: abort)"
    echo "compiler: $CC: $($CC --version 2>/dev/null | head -n 1)"
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
} >"$DEST/SOURCE.txt"
cat "$DEST/SOURCE.txt"
