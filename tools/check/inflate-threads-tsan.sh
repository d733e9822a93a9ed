#!/bin/sh
# inflate-threads-tsan.sh -- the threaded inflate under ThreadSanitizer:
# zlib-turbo compiled from the patched tree with -fsanitize=thread and 4 KiB
# chunks (TUR_CFLAGS=-DZI_CHUNK_BITS=12), the harness and tests too,
# pristine zlib (single-threaded) as make built it; runs the InflateThreads
# tests with most thread traffic (TSAN_FILTER to choose others), at a
# quarter of their quick cases (ZT_CASE_SCALE): workers given chunks,
# decoding ahead while the caller decodes, their blocks taken or dropped,
# threads started, joined and changed between calls, streams reset, copied
# and ended while the workers run, input moved and overwritten, failed
# allocations, 2-64 threads.  Any report fails the step (halt_on_error).
# Uses clang (TSAN_CC/TSAN_CXX, else gcc); skipped where no compiler here
# builds a ThreadSanitizer program that reports a known race (lib.sh's
# tsan_compilers).  Build: build/tests-tsan-inflate.
set -eu
. tools/check/lib.sh
O="$B/tests-tsan-inflate"
pick=$(tsan_compilers "$O/probe")
[ -n "$pick" ] || skip "no compiler here makes a working ThreadSanitizer program (tried clang, gcc)"
set -- $pick
echo "inflate-threads-tsan: $1 / $2 -fsanitize=thread"
TSAN="-O1 -g -fsanitize=thread"
$MAKE -s -j2 -C turbo/tests O="$O" CC="$1" CXX="$2" REF="$REF/libz.a" TUR="$TUR" \
    ZINC="$REF" CFLAGS="$TSAN" CXXFLAGS="$TSAN" LDFLAGS=-fsanitize=thread \
    TUR_CFLAGS=-DZI_CHUNK_BITS=12 TESTS=inflate_threads_test
F=InflateThreads.HandOffNeverHappens:InflateThreads.SlicedCallsDiffer
F=$F:InflateThreads.MultiMemberGzipDiffers:InflateThreads.ResetDiffers
F=$F:InflateThreads.CopyMidStreamDiffers:InflateThreads.SetThreadsBetweenCallsDiffers
F=$F:InflateThreads.ManyThreadsDiffer:InflateThreads.DamagedStreamDiffers
F=$F:InflateThreads.MovedInputDiffers:InflateThreads.OverwrittenInputDiffers
F=$F:InflateThreads.EndMidStreamLeaks:InflateThreads.RandomScenariosDiffer
F=$F:InflateThreads.EnvThreadsDiffer:InflateThreads.ThreadOutlivesStream
F=$F:InflateThreads.AllocatorCalledFromWorker:InflateThreads.FailingAllocatorLeaksOrBreaks
TSAN_OPTS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
ZT_CHUNK_BITS=12 ZT_CASE_SCALE=${ZT_CASE_SCALE:-25} TSAN_OPTIONS="$TSAN_OPTS" \
    exec "$O/zt_tests" --gtest_filter="${TSAN_FILTER:-$F}"
