#!/bin/sh
# inflate-threads-small-chunks.sh -- the threaded inflate tests
# (InflateThreads.*) against a zlib-turbo compiled with 4 KiB chunks
# (TUR_CFLAGS=-DZI_CHUNK_BITS=12, as the fuzz target inflate_threads): a
# call then gives the workers work from 12 KiB of compressed input, and the
# tests run hundreds of small cases with hand-offs, instead of the few
# multi-MiB ones of the default build.  Builds build/tests-chunk12/zt_tests
# (turbo/tests/Makefile, only the inflate threads test) from the patched
# tree as source; ZT_MODE applies.
# check.sh counts each of its GoogleTest tests.
set -eu
O="$B/tests-chunk12"
$MAKE -s -j2 -C turbo/tests O="$O" REF="$REF/libz.a" TUR="$TUR" ZINC="$REF" \
    TUR_CFLAGS=-DZI_CHUNK_BITS=12 TESTS=inflate_threads_test
# ZT_CHUNK_BITS: the chunks the tests must find in the library
ZT_CHUNK_BITS=12 exec "$O/zt_tests" --gtest_filter='InflateThreads.*'
