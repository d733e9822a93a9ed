#!/bin/sh
# differential-suite.sh -- runs the differential suite (ZT_MODE, ZT_CORPUS
# apply); check.sh counts each of its GoogleTest tests
set -eu
[ -x "$B/tests/zt_tests" ] ||
    { echo "build/tests/zt_tests was not built (see build-differential-suite)"; exit 1; }
exec "$B/tests/zt_tests"
