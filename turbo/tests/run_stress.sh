#!/bin/sh
# run_stress.sh REF_TREE TURBO_TREE [FILE...]
#
# Builds zt_tests with two zlib source trees under AddressSanitizer and
# UndefinedBehaviorSanitizer (pair.sh's san flags: -O1 -g
# -fsanitize=address,undefined -fno-sanitize-recover=all, for the trees and
# the harness alike) with turbo/tests/Makefile, and
# runs the damaged-stream tests with the FILEs as source data (ZT_FILES; the
# corpus or pristine-tree files when none are given), the threaded deflate
# tests (DeflateThreads.*: LeakSanitizer, part of ASan, checks that
# deflateEnd() in the middle of a stream leaves nothing) and the tests of
# levels 10-12 (OptimalLevels.*: their failing allocators, copies, resets
# and threads under LeakSanitizer too) and every allocation of every entry
# point failed in turn (AllocFailure.*: LeakSanitizer on every failure
# path).  ZT_MODE=full for the long run (>= 35,000 damaged streams);
# ZT_FILTER to run other tests.
# TUR_CFLAGS=-DZT_SEG_BITS=12 compiles zlib-turbo with 4 KiB segments for
# levels 4-9, -DZO_SEG_BITS=12 for levels 10-12, so that the threads tests
# run hundreds of small cases instead of a few big ones
# (tools/check/threads-small-segments.sh and optimal-small-segments.sh do
# that without sanitizers):
#   TUR_CFLAGS=-DZT_SEG_BITS=12 ZT_FILTER='DeflateThreads.*' \
#       turbo/tests/run_stress.sh build/zlib-1.3.2 build/zlib-turbo
#   TUR_CFLAGS=-DZO_SEG_BITS=12 ZT_FILTER='OptimalLevels.*' \
#       turbo/tests/run_stress.sh build/zlib-1.3.2 build/zlib-turbo
# Build output: $ZT_BUILD (default build/tests/stress in the repository).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 REF_TREE TURBO_TREE [FILE...]" >&2; exit 2; }
REF=$(cd "$1" && pwd) TUR=$(cd "$2" && pwd)
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
B=${ZT_BUILD:-$REPO/build/tests/stress}
SAN=$(sh "$REPO/turbo/harness/pair.sh" cflags san)
make -C "$HERE" -j"${JOBS:-2}" O="$B" REF="$REF" TUR="$TUR" ZINC="$REF" \
    CFLAGS="$SAN" CXXFLAGS="$SAN" LDFLAGS="$SAN" TUR_CFLAGS="${TUR_CFLAGS:-}"
# the segment sizes the threads tests must find in the library
case " ${TUR_CFLAGS:-} " in
    *" -DZT_SEG_BITS="*)
        ZT_SEG_BITS=$(echo " $TUR_CFLAGS " | sed 's/.* -DZT_SEG_BITS=\([0-9]*\) .*/\1/')
        export ZT_SEG_BITS ;;
esac
case " ${TUR_CFLAGS:-} " in
    *" -DZO_SEG_BITS="*)
        ZO_SEG_BITS=$(echo " $TUR_CFLAGS " | sed 's/.* -DZO_SEG_BITS=\([0-9]*\) .*/\1/')
        export ZO_SEG_BITS ;;
esac
files=
for f in "$@"; do
    case $f in /*) p=$f ;; *) p=$(pwd)/$f ;; esac
    files=${files:+$files:}$p
done
if [ -n "$files" ]; then ZT_FILES=$files; export ZT_FILES; fi
export ZT_MODE=${ZT_MODE:-quick}
echo "run_stress: REF=$REF TURBO=$TUR${TUR_CFLAGS:+ ($TUR_CFLAGS)} ZT_MODE=$ZT_MODE files: ${files:-(default data)}"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    exec "$B/zt_tests" --gtest_filter="${ZT_FILTER:-DamagedStream.*:DeflateThreads.*:OptimalLevels.*:AllocFailure.*}"
