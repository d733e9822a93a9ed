#!/bin/sh
# tools/check.sh -- zlib-turbo's test suite (run by `make check`)
#
# Runs every check against the two trees `make` built, build/zlib-1.3.2
# (pristine) and build/zlib-turbo (patched).  Each check is a step script,
# tools/check/STEP.sh, whose top comment says what it checks; it runs at the
# repository's top with TOP, B (build), REF, TUR, PRISTINE (the verified
# zlib 1.3.2 sources), LOG (build/check), MAKE and VERSION (the top
# Makefile's, from src/zturbo.h) in its environment, and exits 0 when the
# check passes, 77 when it cannot run here (its last line says why), else
# non-zero; a passing step that could not run a part of its work says so in
# a line "part-skipped: WHAT: WHY" (lib.sh's skip_part), and each such part
# is shown and counted as one SKIP besides the step's PASS.  A GoogleTest
# step fails when any of its programs ran no test (a filter that matches
# nothing).  Each step prints PASS, FAIL or SKIP (with the reason), its
# output is kept in build/check/STEP.log, and the last line is
# "N passed, N failed, N skipped"; the differential suite counts each of its
# GoogleTest tests.  Exits non-zero on any failure.
#
#   ZT_MODE=full make check     the long mode of the differential suites
#   ZT_CORPUS=DIR               corpus to draw test data from
#                               (default ../shared/corpus when it exists)
#   FUZZ_TIME=N                 seconds of each fuzzer's run (default 10)
#   ZT_EXPECT=                  let the GoogleTest steps skip a test whose
#                               extra is missing (default "all": fail)
#
# tools/check.sh STEP... runs only those steps, each tools/check/STEP.sh,
# or SCRIPT-ARG for tools/check/SCRIPT.sh ARG (make check-cross:
# cross-x86-64 cross-m32 cross-arm64 cross-armel cross-ppc64le cross-s390x
# cross-riscv64, each target cross-compiled and run under qemu-user; make
# check-windows: cross-win64; make check-variants: variants, zlib's build
# variants compared pairwise, long: VARIANTS="name ...", JOBS=N; one line
# per variant in build/variants/summary.txt), and keeps the other logs.
# make check-clients: clients, real Debian programs (CPython, git, libpng,
# pngcrush, Pillow, pigz, Perl) on each library, bytes and speed compared
# (long; the full run has clients-quick, python and git archive bytes).
# The full run has cross-quick (tools/check/cross.sh quick: arm64 and s390x
# under qemu on one file, levels 0-12, about 30 s), which is skipped where those cross
# compilers and qemu-user are not installed.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
B=$TOP/build
REF=$B/zlib-1.3.2
TUR=$B/zlib-turbo
PRISTINE=$B/src/zlib-1.3.2
LOG=$B/check
MAKE=${MAKE:-make}
VERSION=$($MAKE -s --no-print-directory version)
export TOP B REF TUR PRISTINE LOG MAKE VERSION
# the library under the GoogleTest steps is zlib-turbo: a test that finds
# one of its extras missing fails instead of skipping (zt_harness.h)
ZT_EXPECT=${ZT_EXPECT-all}
export ZT_EXPECT
if [ $# -eq 0 ]; then rm -rf "$LOG"; fi
mkdir -p "$LOG"

pass=0 fail=0 skip=0
failed='' skipped=''
t0=$(date +%s)

# run NAME [SCRIPT [ARG...]]: tools/check/SCRIPT.sh (NAME.sh without
# SCRIPT) with its output in build/check/NAME.log; sets rc and secs
run() {
    name=$1
    script=${2:-$1}
    shift
    [ $# -eq 0 ] || shift
    s=$(date +%s)
    sh "tools/check/$script.sh" "$@" >"$LOG/$name.log" 2>&1
    rc=$?
    secs=$(($(date +%s) - s))
}

# report STATUS [NOTE]: one line for the step just run
report() {
    printf '%s  %-34s %4ss%s\n' "$1" "$name" "$secs" "${2:+  ($2)}"
    case $1 in
        FAIL) failed="$failed $name" ;;
        SKIP) skipped="$skipped $name" ;;
    esac
}

# show: the lines that explain a failure (stdin), indented
show() { sed 's/^/      | /'; }

# parts: the parts the step just run said it skipped (part-skipped:
# lines), each shown and counted as a SKIP
parts() {
    np_=$(grep -c '^part-skipped: ' "$LOG/$name.log")
    [ "$np_" -gt 0 ] || return 0
    skip=$((skip + np_))
    skipped="$skipped $name($np_ part(s))"
    sed -n 's/^part-skipped: /SKIP    part: /p' "$LOG/$name.log" | show
}

# step NAME [SCRIPT [ARG...]]: one check, counted once
step() {
    run "$@"
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        report PASS
        parts
    elif [ $rc -eq 77 ]; then
        skip=$((skip + 1))
        report SKIP "skipped: $(tail -n 1 "$LOG/$name.log")"
    else
        fail=$((fail + 1))
        report FAIL "build/check/$name.log"
        tail -n 15 "$LOG/$name.log" | show
    fi
}

# gtest_count RE: the sum of the numbers that RE's \(group\) finds in the
# step's log, 0 if none
gtest_count() {
    sed -n "s/$1/\\1/p" "$LOG/$name.log" | awk '{ n += $1 } END { print n + 0 }'
}

# gtest_step NAME [SCRIPT [ARG...]]: a step that runs a GoogleTest program;
# each of its tests counts as passed, failed or skipped (GTEST_SKIP, e.g.
# without ../shared) (a failure without gtest's count counts one; a step
# that exits 77 before running any test is one skipped step)
gtest_step() {
    run "$@"
    if [ $rc -eq 77 ]; then
        skip=$((skip + 1))
        report SKIP "skipped: $(tail -n 1 "$LOG/$name.log")"
        return
    fi
    # a step may run several GoogleTest programs: their counts add up
    np=$(gtest_count '^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*')
    nf=$(gtest_count '^\[  FAILED  \] \([0-9]*\) tests\{0,1\}, listed below.*')
    ns=$(gtest_count '^\[  SKIPPED \] \([0-9]*\) tests\{0,1\}, listed below.*')
    if [ $rc -ne 0 ] && [ "$nf" -eq 0 ]; then nf=1; fi
    # a program that ran no test (its filter matched nothing) fails
    if grep -q '^\[==========\] 0 tests from' "$LOG/$name.log" ||
       ! grep -q '^\[==========\] [0-9]* tests\{0,1\} from' "$LOG/$name.log"; then
        echo "check: $name: a GoogleTest program ran no test" >>"$LOG/$name.log"
        nf=$((nf + 1))
    fi
    pass=$((pass + np))
    fail=$((fail + nf))
    skip=$((skip + ns))
    [ "$ns" -eq 0 ] || skipped="$skipped $name($ns)"
    counts="$np passed, $nf failed, $ns skipped; build/check/$name.log"
    if [ "$nf" -eq 0 ]; then
        report PASS "$counts"
        parts
    else
        report FAIL "$counts"
        if grep -q '^\[  FAILED  \]' "$LOG/$name.log"; then
            grep '^\[  FAILED  \]' "$LOG/$name.log" | head -n 20 | show
        else
            tail -n 15 "$LOG/$name.log" | show
        fi
    fi
}

# the steps that run GoogleTest programs (counted test by test);
# differential-sample is make check-quick's, not make check's
GTEST_STEPS="differential-suite differential-sample threads-small-segments threads-tsan optimal-small-segments inflate-threads-small-chunks inflate-threads-tsan"

# only the steps named
if [ $# -gt 0 ]; then
    for s; do
        case " $GTEST_STEPS " in
        *" $s "*) gtest_step "$s" ;;
        *) if [ -f "tools/check/$s.sh" ]; then step "$s"
           else step "$s" "${s%%-*}" "${s#*-}"; fi ;;
        esac
    done
    echo
    echo "${failed:+failed:$failed; }${skipped:+skipped:$skipped; }$pass passed, $fail failed, $skip skipped"
    [ "$fail" -eq 0 ]
    exit
fi

step zlib-test-pristine zlib-test "$REF"
step zlib-test-turbo zlib-test "$TUR"
step infcover-turbo
step interface
step patch-series
step docs
step fetch-verifies
step cmake-turbo
step build-differential-suite
for s in differential-suite threads-small-segments threads-tsan optimal-small-segments \
         inflate-threads-small-chunks inflate-threads-tsan; do
    gtest_step "$s"
done
step checksums-exhaustive
step inflate-table-same
for f in turbo/tests/fuzz/fuzz_*.c; do
    t=${f##*/fuzz_}
    t=${t%.c}
    step "fuzz-$t" fuzz "$t"
done
step fuzz-replay
step crc32-fold-constants
step simd-absent-by-default
step simd-auto
step simd-static
step simd-inflate
step harness-selftest
step mutation-selftest
step cross-quick cross quick
step zturbo-command
step max-level
step clients-quick clients quick
step install
step consumers
step dist

e=$(($(date +%s) - t0))
echo
echo "make check took ${e}s${failed:+; failed:$failed}${skipped:+; skipped:$skipped}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
