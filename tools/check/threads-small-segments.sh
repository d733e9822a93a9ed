#!/bin/sh
# threads-small-segments.sh -- the threaded deflate tests (DeflateThreads.*)
# against a zlib-turbo compiled with 4 KiB segments (TUR_CFLAGS=
# -DZT_SEG_BITS=12): threads then start from 1 KiB of input per call, so the
# tests run hundreds of small cases instead of the few 128-600 KiB ones of the
# default build.  Builds build/tests-seg12/zt_tests (turbo/tests/Makefile,
# only the threads test) from the patched tree as source; ZT_MODE applies.
# check.sh counts each of its GoogleTest tests.
set -eu
O="$B/tests-seg12"
$MAKE -s -j2 -C turbo/tests O="$O" REF="$REF/libz.a" TUR="$TUR" ZINC="$REF" \
    TUR_CFLAGS=-DZT_SEG_BITS=12 TESTS=deflate_threads_test
# ZT_SEG_BITS: the segment size the tests must find in the library
ZT_SEG_BITS=12 exec "$O/zt_tests" --gtest_filter='DeflateThreads.*'
