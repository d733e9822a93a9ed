#!/bin/sh
# harness-selftest.sh -- the differential suite can fail: pristine zlib
# built with a changed decision must be caught (turbo/tests/selftest.sh)
set -eu
$MAKE -C turbo/tests selftest O="$B/tests" REF="$REF/libz.a" ZINC="$REF" \
    PRISTINE="$PRISTINE"
