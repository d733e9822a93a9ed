#!/bin/sh
# mutation-selftest.sh -- the differential suite catches bugs in zlib-turbo's
# own code: each turbo/tests/mutants/NAME.patch (a small off-by-one or
# boundary bug in one technique, applied to a copy of the patched tree's
# sources) must make the gtest filter named in its header fail
# (turbo/tests/mutants/run.sh; 2 at a time).  Fails when a mutant survives,
# crashes instead of failing a test, no longer applies to the tree, or its
# filter runs no test.  First the control: every mutant's filter, with its
# flags and environment, on the unmutated tree must pass (a filter that
# fails anyway would make every mutant look caught).
set -eu
echo "mutation-selftest: the control run"
BASE_OBJS="$B/tests" JOBS=${JOBS:-2} CONTROL=1 sh turbo/tests/mutants/run.sh \
    "$B/mutants-control" "$REF/libz.a" "$TUR" "$REF"
echo "mutation-selftest: the mutants"
BASE_OBJS="$B/tests" JOBS=${JOBS:-2} exec sh turbo/tests/mutants/run.sh \
    "$B/mutants" "$REF/libz.a" "$TUR" "$REF"
