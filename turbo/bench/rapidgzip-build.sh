#!/bin/sh
# rapidgzip-build.sh DEST [RAPIDGZIP [INDEXED_BZIP2 [ISAL [RPMALLOC [CXXOPTS]]]]]
# -- the rapidgzip command-line tool (parallel gzip decompressor), built
# outside the repository from public source snapshots, as a comparator for
# inflate benchmarks.  Nothing of rapidgzip is kept in this repository.
#
# Each source argument is a git directory (bare or not) of that project's
# public repository; an argument left out, or given as "-", defaults to
# /work/.mirror/<owner>+<name>/repo (what the fetch tool leaves):
#   RAPIDGZIP      mxmlnkn/rapidgzip      its commit $RAPIDGZIP_REF (default
#                                         HEAD) is taken with 'git archive'
#   INDEXED_BZIP2  mxmlnkn/indexed_bzip2  the code: rapidgzip's submodule
#                                         librapidarchive, at the commit
#                                         rapidgzip pins
#   ISAL           mxmlnkn/isa-l          indexed_bzip2's submodules, each
#   RPMALLOC       mjansson/rpmalloc      at the commit indexed_bzip2 pins
#   CXXOPTS        jarro2783/cxxopts      (the script fails if a mirror
#                                         lacks the pinned commit)
# Checked with (git -C MIRROR rev-parse HEAD, and the pinned commits used):
#   rapidgzip      HEAD d2350e9c9ba54398cd64e45bfc8c631beec017f0 (v0.16.0)
#   indexed_bzip2  HEAD a7db9a862e47a86fa59192d91fcf25a3e0feddff;
#                  used 1221a30bb548b305a69e5715f2bc348ba37ac243 (pinned)
#   isa-l          HEAD = used 6a7c87e34293f427600e37f702d8a4d73391e48d
#   rpmalloc       HEAD 5dacae8ba4ec31100dd2ed4bffd552abbd3cb29f;
#                  used 66fd705a811764035ec80f54928748d2b31a3827 (pinned)
#   cxxopts        HEAD a3a21b31ef2894b5a802f041f40d51059469a259;
#                  used 44380e5a44706ab7347f400698c703eb2a196202 (pinned,
#                  cxxopts 3.3.1)
#
# Build: indexed_bzip2's own CMake (rapidgzip has no CMakeLists.txt of its
# own), CMAKE_BUILD_TYPE=Release (CMake's -O3 -DNDEBUG; its CMakeLists.txt
# turns on LTO by itself), no -march: a portable build like upstream's, ISA-L
# picking its SIMD code at run time.  Only the target `rapidgzip` is built
# (nice -n 10, $JOBS jobs, default 2).  Options:
#   LIBRAPIDARCHIVE_WITH_ISAL=ON      ISA-L's inflate (needs nasm; installed
#                                     with apt-get if missing); without it
#                                     rapidgzip is much slower.
#                                     RAPIDGZIP_WITH_ISAL=0 builds without
#                                     (then ISAL is not read).
#   LIBRAPIDARCHIVE_WITH_RPMALLOC=ON  upstream's default allocator
#   LIBRAPIDARCHIVE_USE_SYSTEM_ZLIB=ON, LIBRAPIDARCHIVE_USE_ZLIB_NG=OFF
#                                     Debian's zlib (zlib1g-dev) instead of
#                                     the pinned zlib-ng, which no snapshot
#                                     here has.  With ISA-L, zlib is not on
#                                     rapidgzip's decompression path (its
#                                     author's note in
#                                     src/benchmarks/benchmarkGzip.cpp).
#   LIBRAPIDARCHIVE_BUILD_TESTS=OFF, LIBRAPIDARCHIVE_BUILD_BENCHMARKS=OFF
# src/CMakeLists.txt runs 'git submodule update --init' when
# external/zlib-ng/inflate.h or external/rpmalloc/rpmalloc.h is missing (the
# latter is always missing: rpmalloc.h lives one folder deeper), so the
# script puts two placeholder headers (#error, never included) there.
#
# Output, under DEST (which must be outside this repository):
#   DEST/bin/rapidgzip   the binary (also printed at the end)
#   DEST/SOURCE.txt      what was built, from which commits, with what
#   DEST/src, DEST/build the exported sources and the CMake build
#   DEST/*.log           configure and build logs
# After the build the binary is checked: a gzip -6 file (indexed_bzip2's
# sources as a tar) decompressed with -P 1 and -P 2 must match.
# Environment: CC, CXX (default cc, c++), JOBS (2), RAPIDGZIP_REF (HEAD),
# RAPIDGZIP_WITH_ISAL (1).
set -eu

[ $# -ge 1 ] && [ $# -le 6 ] || {
    sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" | sed '$d' >&2; exit 2; }
M=/work/.mirror
DEST=$1
arg() { if [ -n "${1:-}" ] && [ "$1" != - ]; then echo "$1"; else echo "$2"; fi; }
RG=$(arg "${2:-}" $M/mxmlnkn+rapidgzip/repo)
IB=$(arg "${3:-}" $M/mxmlnkn+indexed_bzip2/repo)
ISAL=$(arg "${4:-}" $M/mxmlnkn+isa-l/repo)
RPM=$(arg "${5:-}" $M/mjansson+rpmalloc/repo)
CXXO=$(arg "${6:-}" $M/jarro2783+cxxopts/repo)
REF=${RAPIDGZIP_REF:-HEAD}
WITH_ISAL=${RAPIDGZIP_WITH_ISAL:-1}
JOBS=${JOBS:-2}
CC=${CC:-cc}
CXX=${CXX:-c++}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd -P)

# DEST outside the repository: checked before anything is made there, and
# again on the resolved path
inside() {
    case $1/ in
        "$ROOT"/*) echo "rapidgzip-build: DEST must be outside the repository ($ROOT)" >&2
                   exit 2 ;;
    esac
}
case $DEST in /*) inside "$DEST" ;; *) inside "$(pwd)/$DEST" ;; esac
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd -P)
inside "$DEST"

say() { echo "rapidgzip-build: $*" >&2; }
die() { say "$*"; exit 1; }

# gitdir DIR: the git directory of DIR (bare or with a work tree)
gitdir() {
    if git -C "$1" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$1" rev-parse --absolute-git-dir
    elif git --git-dir="$1" rev-parse --git-dir >/dev/null 2>&1; then
        (cd "$1" && pwd)
    else
        die "not a git directory: $1"
    fi
}
# pin GITDIR COMMIT PATH: the commit that the submodule at PATH is pinned to
pin() {
    p=$(git --git-dir="$1" ls-tree "$2" -- "$3" | awk '$1 == "160000" { print $3 }')
    [ -n "$p" ] || die "no submodule $3 in $1 at $2"
    echo "$p"
}
# export GITDIR COMMIT TO: git archive of COMMIT into TO
export_tree() {
    git --git-dir="$1" cat-file -e "$2^{commit}" 2>/dev/null ||
        die "$1 lacks commit $2 (pinned); fetch a newer snapshot"
    mkdir -p "$3"
    git --git-dir="$1" archive --format=tar "$2" | tar -x -C "$3"
}

# tools: cmake, a C++ compiler, zlib's header; nasm for ISA-L
need=
command -v cmake >/dev/null 2>&1 || need="$need cmake"
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
if [ "$WITH_ISAL" = 1 ]; then
    command -v nasm >/dev/null 2>&1 || need="$need nasm"
fi
# shellcheck disable=SC2086 # $need: package names, split on purpose
if [ -n "$need" ]; then
    say "installing Debian's$need (apt-get)"
    apt-get install -y $need >"$DEST/apt.log" 2>&1 ||
        { apt-get update >>"$DEST/apt.log" 2>&1 &&
          apt-get install -y $need >>"$DEST/apt.log" 2>&1; } ||
        die "apt-get install$need failed (see $DEST/apt.log)"
fi

RGD=$(gitdir "$RG")
IBD=$(gitdir "$IB")
RPMD=$(gitdir "$RPM")
CXXOD=$(gitdir "$CXXO")
rg_c=$(git --git-dir="$RGD" rev-parse "$REF^{commit}")
ib_c=$(pin "$RGD" "$rg_c" librapidarchive)
rpm_c=$(pin "$IBD" "$ib_c" src/external/rpmalloc)
cxxo_c=$(pin "$IBD" "$ib_c" src/external/cxxopts)
isal_c=$(pin "$IBD" "$ib_c" src/external/isa-l)

rm -rf "${DEST:?}/src" "${DEST:?}/build" "${DEST:?}/bin" "${DEST:?}/SOURCE.txt" \
    "${DEST:?}/check"
S=$DEST/src/rapidgzip
L=$S/librapidarchive
E=$L/src/external
export_tree "$RGD" "$rg_c" "$S"
export_tree "$IBD" "$ib_c" "$L"
export_tree "$RPMD" "$rpm_c" "$E/rpmalloc"
export_tree "$CXXOD" "$cxxo_c" "$E/cxxopts"
isal_line="ISA-L: off (RAPIDGZIP_WITH_ISAL=0)"
if [ "$WITH_ISAL" = 1 ]; then
    ISALD=$(gitdir "$ISAL")
    export_tree "$ISALD" "$isal_c" "$E/isa-l"
    isal_line="isa-l: $ISALD commit $isal_c"
fi
# placeholders that keep src/CMakeLists.txt from running git (see above)
mkdir -p "$E/zlib-ng"
echo '#error "placeholder: rapidgzip-build.sh builds with the system zlib"' \
    >"$E/zlib-ng/inflate.h"
echo '#error "placeholder: rpmalloc.h is in rpmalloc/rpmalloc/"' \
    >"$E/rpmalloc/rpmalloc.h"

if [ "$WITH_ISAL" = 1 ]; then ISAL_OPT=ON; else ISAL_OPT=OFF; fi
OPTS="-DCMAKE_BUILD_TYPE=Release
 -DLIBRAPIDARCHIVE_WITH_ISAL=$ISAL_OPT
 -DLIBRAPIDARCHIVE_WITH_RPMALLOC=ON
 -DLIBRAPIDARCHIVE_USE_SYSTEM_ZLIB=ON
 -DLIBRAPIDARCHIVE_USE_ZLIB_NG=OFF
 -DLIBRAPIDARCHIVE_BUILD_TESTS=OFF
 -DLIBRAPIDARCHIVE_BUILD_BENCHMARKS=OFF
 -DLIBRAPIDARCHIVE_BUILD_TOOLS=ON
 -DFETCHCONTENT_FULLY_DISCONNECTED=ON"
say "configuring rapidgzip $rg_c (librapidarchive $ib_c)"
# GIT_CEILING_DIRECTORIES: should git run after all, it finds no repository
# around DEST
# shellcheck disable=SC2086
GIT_CEILING_DIRECTORIES=$DEST CC=$CC CXX=$CXX \
    cmake -S "$L" -B "$DEST/build" $OPTS \
    >"$DEST/cmake-configure.log" 2>&1 ||
    die "cmake configure failed (see $DEST/cmake-configure.log)"
say "building the target rapidgzip (nice -n 10, -j $JOBS)"
t0=$(date +%s)
nice -n 10 cmake --build "$DEST/build" --target rapidgzip --verbose -j "$JOBS" \
    >"$DEST/cmake-build.log" 2>&1 ||
    die "cmake build failed (see $DEST/cmake-build.log)"
t1=$(date +%s)
B=$(find "$DEST/build" -type f -name rapidgzip -perm -u+x | head -n 1)
[ -n "$B" ] || die "no rapidgzip binary in $DEST/build"
mkdir -p "$DEST/bin"
cp "$B" "$DEST/bin/rapidgzip"
RGZ=$DEST/bin/rapidgzip
version=$("$RGZ" --version 2>&1 | head -n 1)

# check: a round trip with 1 and 2 threads
mkdir -p "$DEST/check"
git --git-dir="$IBD" archive --format=tar "$ib_c" >"$DEST/check/data.tar"
gzip -6 -c "$DEST/check/data.tar" >"$DEST/check/data.tar.gz"
for p in 1 2; do
    "$RGZ" -d -c -P $p "$DEST/check/data.tar.gz" | cmp - "$DEST/check/data.tar" ||
        die "CHECK FAILED: rapidgzip -P $p does not reproduce $DEST/check/data.tar"
done
rm -rf "$DEST/check"

flags=$(grep -m 1 -o ' -O[0-9s] -DNDEBUG' "$DEST/cmake-build.log" || true)
{
    echo "$version"
    echo "binary: $RGZ"
    echo "rapidgzip: $RGD commit $rg_c"
    echo "librapidarchive (indexed_bzip2): $IBD commit $ib_c"
    echo "$isal_line"
    echo "rpmalloc: $RPMD commit $rpm_c"
    echo "cxxopts: $CXXOD commit $cxxo_c"
    echo "zlib: system ($(dpkg-query -W -f '${Package} ${Version}' zlib1g-dev 2>/dev/null || echo '?'))"
    # shellcheck disable=SC2086
    echo "cmake options:" $OPTS
    echo "C++ flags:${flags:- see cmake-build.log} (Release), LTO by indexed_bzip2's CMakeLists.txt"
    echo "compiler: $CXX: $($CXX --version 2>/dev/null | head -n 1)"
    echo "build: $((t1 - t0)) s, -j $JOBS, nice -n 10"
    echo "check: gzip -6 round trip with -P 1 and -P 2: ok"
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
} >"$DEST/SOURCE.txt"
cat "$DEST/SOURCE.txt"
say "done: $RGZ"
echo "$RGZ"
