#!/bin/sh
# optimal-small-segments.sh -- the tests of levels 10-12 (OptimalLevels.*)
# against a zlib-turbo compiled with 4 KiB segments (TUR_CFLAGS=
# -DZO_SEG_BITS=12): the inputs of tens of KiB that the quick tests use then
# cross many segments, and the threads take them up (ZO_SEG_BITS=12 in the
# environment tells the tests, which then run many small threaded cases).
# Builds build/tests-optseg12/zt_tests (turbo/tests/Makefile, only the
# levels 10-12 test) from the patched tree as source; ZT_MODE applies.
# check.sh counts each of its GoogleTest tests.
set -eu
O="$B/tests-optseg12"
$MAKE -s -j2 -C turbo/tests O="$O" REF="$REF/libz.a" TUR="$TUR" ZINC="$REF" \
    TUR_CFLAGS=-DZO_SEG_BITS=12 TESTS=optimal_levels_test
ZO_SEG_BITS=12 exec "$O/zt_tests" --gtest_filter='OptimalLevels.*'
