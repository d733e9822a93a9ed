#!/bin/sh
# build-differential-suite.sh -- builds build/tests/zt_tests, the
# differential suite (turbo/tests/Makefile): pristine's and turbo's libz.a
# as make built them, renamed side by side
set -eu
$MAKE -C turbo/tests O="$B/tests" REF="$REF/libz.a" TUR="$TUR/libz.a" \
    ZINC="$REF"
