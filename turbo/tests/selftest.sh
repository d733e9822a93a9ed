#!/bin/sh
# selftest.sh OUTDIR PRISTINE_TREE REF [MAKE]
#
# The differential suite must be able to fail.  Builds zt_tests twice with
# the pristine zlib source tree as the library under test, each time compiled
# with one option that changes observable behaviour, and checks that the
# relevant tests report a difference:
#   -DTOO_FAR=32767         deflate keeps far length-3 matches: different
#                           compressed bytes at levels 4-9 on text > 4 KiB
#                           -> DeflateIdentity.FilesAllLevels must fail
#   -DPKZIP_BUG_WORKAROUND  inflate accepts HLIT > 286 / HDIST > 30 in
#                           dynamic block headers
#                           -> DamagedStream.Generated must fail
# Succeeds only if both are reported as different.
set -u
unset ZT_EXPECT    # the library under test is pristine zlib: no extras
OUT=${1:?usage: selftest.sh OUTDIR PRISTINE_TREE REF [MAKE]}
PRISTINE=${2:?}
REF=${3:?}
MAKE=${4:-make}
HERE=$(cd "$(dirname "$0")" && pwd)
status=0

check() {   # name flag filter
    name=$1 flag=$2 filter=$3
    echo "selftest: $name: building zt_tests with TUR=$PRISTINE compiled with $flag"
    if ! $MAKE -s -C "$HERE" O="$OUT/$name" REF="$REF" TUR="$PRISTINE" \
            TUR_CFLAGS="$flag" >"$OUT.$name.build.log" 2>&1; then
        echo "selftest: $name: BUILD FAILED (see $OUT.$name.build.log)"
        cat "$OUT.$name.build.log"
        status=1
        return
    fi
    echo "selftest: $name: running zt_tests --gtest_filter=$filter (must FAIL)"
    "$OUT/$name/zt_tests" --gtest_filter="$filter" >"$OUT.$name.log" 2>&1
    rc=$?
    n=$(grep -c "ref and tur differ" "$OUT.$name.log")
    if [ "$rc" -ne 0 ] && [ "$n" -gt 0 ]; then
        echo "selftest: $name: OK, the suite reported $n difference(s) (exit $rc); first one:"
        grep -m1 -A7 "ref and tur differ" "$OUT.$name.log" | sed 's/^/    /'
    else
        echo "selftest: $name: NOT DETECTED (exit $rc, $n differences) -- the suite is blind here"
        status=1
    fi
}

mkdir -p "$OUT"
check toofar "-DTOO_FAR=32767" "DeflateIdentity.FilesAllLevels"
check pkzip "-DPKZIP_BUG_WORKAROUND" "DamagedStream.Generated"
if [ $status -eq 0 ]; then
    echo "selftest: PASSED (both broken libraries were caught)"
else
    echo "selftest: FAILED"
fi
exit $status
