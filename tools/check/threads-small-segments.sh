#!/bin/sh
# threads-small-segments.sh -- the threaded deflate tests (DeflateThreads.*)
# against a zlib-turbo compiled with 1 KiB segments (TUR_CFLAGS=
# -DZT_SEG_BITS=10, as the fuzz target deflate_threads): threads then start
# from 256 bytes of input per call at levels 8-9, jobs can be shorter than
# MIN_LOOKAHEAD and than the window, and the tests run hundreds of small
# cases instead of the few 128-600 KiB ones of the default build.  Builds
# build/tests-seg10/zt_tests (turbo/tests/Makefile, only the threads test)
# from the patched tree as source; ZT_MODE applies.
# check.sh counts each of its GoogleTest tests.
set -eu
O="$B/tests-seg10"
$MAKE -s -j2 -C turbo/tests O="$O" REF="$REF/libz.a" TUR="$TUR" ZINC="$REF" \
    TUR_CFLAGS=-DZT_SEG_BITS=10 TESTS=deflate_threads_test
# ZT_SEG_BITS: the segment size the tests must find in the library
ZT_SEG_BITS=10 exec "$O/zt_tests" --gtest_filter='DeflateThreads.*'
