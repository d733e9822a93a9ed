#!/bin/sh
# threads-tsan.sh -- the threaded deflate under ThreadSanitizer: zlib-turbo
# compiled from the patched tree with -fsanitize=thread and 1 KiB segments
# (TUR_CFLAGS=-DZT_SEG_BITS=10), the harness and tests too, pristine zlib
# (single-threaded) as make built it; runs a subset of DeflateThreads.*
# (TSAN_FILTER to choose others) in which the workers start, stop, are
# joined, run ahead of the caller, are discarded and rerun.  Any report
# fails the step (halt_on_error).  Uses clang (TSAN_CC/TSAN_CXX, else gcc);
# skipped where no compiler here builds a ThreadSanitizer program that
# reports a known race.  Build: build/tests-tsan-threads.  Then the same
# for levels 10-12: OptimalLevels' threaded tests (1-8 threads) against
# zlib-turbo with 4 KiB segments (-DZO_SEG_BITS=12; TSAN_FILTER_OPTIMAL to
# choose others).  Build: build/tests-tsan-optimal.
set -eu
. tools/check/lib.sh
O="$B/tests-tsan-threads"
# a compiler pair whose ThreadSanitizer works here (lib.sh)
pick=$(tsan_compilers "$O/probe")
[ -n "$pick" ] || skip "no compiler here makes a working ThreadSanitizer program (tried clang, gcc)"
set -- $pick
echo "threads-tsan: $1 / $2 -fsanitize=thread"
TSAN="-O1 -g -fsanitize=thread"
$MAKE -s -j2 -C turbo/tests O="$O" CC="$1" CXX="$2" REF="$REF/libz.a" TUR="$TUR" \
    ZINC="$REF" CFLAGS="$TSAN" CXXFLAGS="$TSAN" LDFLAGS=-fsanitize=thread \
    TUR_CFLAGS=-DZT_SEG_BITS=10 TESTS=deflate_threads_test
# the tests with most thread traffic (a quarter of their quick cases:
# ZT_CASE_SCALE): sessions started and ended at every kind of point, thread
# counts changed, streams reset, copied and ended while jobs run, input
# moved and overwritten while workers run ahead, failed allocations, many
# threads
F=DeflateThreads.ThreadsNeverStart:DeflateThreads.SlicedCallsDiffer
F=$F:DeflateThreads.FlushesMidSessionDiffer:DeflateThreads.ParamsSwitchMidStreamDiffers
F=$F:DeflateThreads.SetThreadsBetweenCallsDiffers:DeflateThreads.ResetDiffers
F=$F:DeflateThreads.EndMidStreamLeaks:DeflateThreads.CopyMidStreamDiffers
F=$F:DeflateThreads.MovedInputDiffers:DeflateThreads.OverwrittenInputDiffers
F=$F:DeflateThreads.NonConvergingDataDiffers:DeflateThreads.ManyThreadsDiffer
F=$F:DeflateThreads.FailingAllocatorLeaksOrBreaks:DeflateThreads.AllocatorCalledFromWorker
F=$F:DeflateThreads.ThreadOutlivesStream:DeflateThreads.EnvThreadsDiffer
F=$F:DeflateThreads.JobHistoryBeforeWindowDiffers
F=$F:DeflateThreads.SlideToReachAtSessionStartDiffers
TSAN_OPTS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
ZT_SEG_BITS=10 ZT_CASE_SCALE=${ZT_CASE_SCALE:-25} TSAN_OPTIONS="$TSAN_OPTS" \
    "$O/zt_tests" --gtest_filter="${TSAN_FILTER:-$F}"

# levels 10-12: segments of 4 KiB compressed by 1-8 threads
O2="$B/tests-tsan-optimal"
$MAKE -s -j2 -C turbo/tests O="$O2" CC="$1" CXX="$2" REF="$REF/libz.a" TUR="$TUR" \
    ZINC="$REF" CFLAGS="$TSAN" CXXFLAGS="$TSAN" LDFLAGS=-fsanitize=thread \
    TUR_CFLAGS=-DZO_SEG_BITS=12 TESTS=optimal_levels_test
F=OptimalLevels.ThreadCountSameBytes:OptimalLevels.ThreadsStart
F=$F:OptimalLevels.SetThreadsBetweenCallsSameBytes:OptimalLevels.OverwrittenInputSeen
F=$F:OptimalLevels.CopyContinuesIdentically:OptimalLevels.EndMidStreamFreesAll
F=$F:OptimalLevels.OneSegmentThenMoreAfterResetSameBytes
ZO_SEG_BITS=12 TSAN_OPTIONS="$TSAN_OPTS" \
    exec "$O2/zt_tests" --gtest_filter="${TSAN_FILTER_OPTIMAL:-$F}"
