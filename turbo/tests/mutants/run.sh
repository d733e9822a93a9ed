#!/bin/sh
# run.sh OUTDIR REF TUR_TREE ZINC [MUTANT...]
#
# Mutation self-test: the differential suite must catch realistic bugs in
# zlib-turbo's own code, not only in pristine zlib (turbo/tests/selftest.sh).
# Each turbo/tests/mutants/NAME.patch is a small unified diff against the
# patched tree (build/zlib-turbo: a one-line off-by-one or boundary bug in
# one technique) with a header before the diff:
#
#   Mutant: TECHNIQUE (file, function)   what is mutated
#   Breaks: ...             what goes wrong, and where it shows
#   Caught by: ...          the test that must catch it, and why (for people)
#   Filter: A.B[:C.D]       the narrowest gtest filter that must catch it
#   Tests: x_test [y_test]  the test files that filter needs (TESTS=)
#   Cflags: ...             extra flags for the mutated tree (TUR_CFLAGS)
#   Env: VAR=value ...      environment of the test run
#   Needs: simd             skipped where the CPU lacks PCLMULQDQ, SSE4.1
#                           or AVX2 (the --simd build)
#   Command: CMD            instead of Filter and Tests: a shell command,
#                           run at the repository's top with TREE (the
#                           mutated sources: TREE_OR_LIB's *.c, *.h and
#                           cmd/*.c), REF, ZINC and TUR_LIB (the unmutated
#                           TREE's libz.a) in its environment; caught when
#                           it exits non-zero but 77 (77: it could not run
#                           here, a SKIP); for a file the suite cannot
#                           reach: src/zsimd.c's dispatch, the zturbo
#                           command
#
# First every patch is applied to a copy of TUR_TREE's sources (patch -p1,
# no fuzz): one that no longer applies fails the run at once, before anything
# is built.  Then, JOBS (2) at a time, each mutant: a copy of the sources
# with the patch applied is built into zt_tests by turbo/tests/Makefile
# (TUR=that tree, TUR_CFLAGS, TESTS; REF and ZINC as given), and zt_tests
# runs with the mutant's filter.  It is caught when zt_tests fails with at
# least one failed test (a "ref and tur differ" or a failed check); it
# survives when every test passes, which means a test is missing.  A run
# that crashes without gtest's list of failed tests, or takes more than
# MUTANT_TIMEOUT seconds (120), is counted as not caught too: a mutant is
# meant to be a quiet bug, not a crash.
#
# The objects that do not depend on the mutated library (the test drivers,
# the renamed REF) are built once into OUTDIR/base, from BASE_OBJS (e.g.
# build/tests) where it holds them up to date (make decides).
#
#   MUTANTS (or the arguments)  names to run (default: every NAME.patch)
#   JOBS=2  MUTANT_TIMEOUT=120  MAKE=make  CC CXX CFLAGS as for the Makefile
#   CONTROL=1   run each filter (with its Cflags and Env) on TUR_TREE itself
#               instead: every one must pass
#
# Prints one line per mutant (CAUGHT by which tests, SURVIVED, NOT APPLIED,
# SKIP) and "mutation-selftest: N caught, N failed, N skipped"; exits 0
# only when every mutant that ran was caught (with CONTROL=1: passed).
set -u
OUT=${1:?usage: run.sh OUTDIR REF TUR_TREE ZINC [MUTANT...]}
REF=${2:?usage: run.sh OUTDIR REF TUR_TREE ZINC [MUTANT...]}
TREE=$(cd "${3:?usage: run.sh OUTDIR REF TUR_TREE ZINC [MUTANT...]}" && pwd) || exit 1
ZINC=${4:?usage: run.sh OUTDIR REF TUR_TREE ZINC [MUTANT...]}
shift 4
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
TESTS_DIR=$(cd "$HERE/.." && pwd)
MAKE=${MAKE:-make}
JOBS=${JOBS:-2}
LIMIT=${MUTANT_TIMEOUT:-120}
CONTROL=${CONTROL:-0}
# shellcheck disable=SC2086
[ $# -gt 0 ] || set -- ${MUTANTS:-}
if [ $# -eq 0 ]; then
    for p in "$HERE"/*.patch; do
        [ -f "$p" ] && set -- "$@" "$(basename "$p" .patch)"
    done
fi
[ $# -gt 0 ] || { echo "mutation-selftest: no mutants in $HERE"; exit 1; }
t0=$(date +%s)
rm -rf "$OUT"
mkdir -p "$OUT"

# field NAME KEY: the value of "KEY: ..." in the mutant's header
field() {
    sed -n -e '/^diff /q' -e '/^--- /q' -e "s/^$2: *//p" "$HERE/$1.patch" |
        head -n 1
}

# cpu_has FLAG (as tools/check/lib.sh)
cpu_has() { grep -qw "$1" /proc/cpuinfo 2>/dev/null; }
simd_cpu() {
    case $(uname -m) in x86_64|i?86|amd64) ;; *) return 1 ;; esac
    cpu_has pclmulqdq && cpu_has sse4_1 && cpu_has avx2
}

# the library sources of the tree (what pair.sh objs compiles, and headers)
mkdir -p "$OUT/src/cmd"
cp -p "$TREE"/*.c "$TREE"/*.h "$OUT/src/" || exit 1
cp -p "$TREE"/cmd/*.c "$OUT/src/cmd/" 2>/dev/null || true

# every patch must apply, exactly (no fuzz), before anything is built
bad=0
for m; do
    if [ ! -f "$HERE/$m.patch" ]; then
        echo "mutation-selftest: $m: NO SUCH MUTANT ($HERE/$m.patch)"
        bad=1
    elif ! (cd "$OUT/src" && patch -p1 -F0 -N --dry-run \
                <"$HERE/$m.patch") >"$OUT/$m.apply.log" 2>&1; then
        echo "mutation-selftest: $m: NOT APPLIED -- turbo/tests/mutants/$m.patch" \
             "no longer applies to $TREE; update it to the code it mutates:"
        sed 's/^/    /' "$OUT/$m.apply.log"
        bad=1
    elif [ -z "$(field "$m" Command)" ]; then
        for k in Filter Tests; do
            [ -n "$(field "$m" $k)" ] || {
                echo "mutation-selftest: $m: its header has no $k: line"; bad=1; }
        done
    fi
done
[ $bad -eq 0 ] || { echo "mutation-selftest: FAILED (mutants that do not apply)"; exit 1; }

# the objects shared by every build, made once: the test drivers the
# mutants need, the renamed REF, and optimal_levels_test.o with the tree's
# zturbo.h (ZTURBO_H: the same object for every mutant that leaves zturbo.h
# alone, and the one BASE_OBJS has where that was built from TUR_TREE)
MK="$MAKE -s -C $TESTS_DIR REF=$REF ZINC=$ZINC"
B0=$OUT/base
mkdir -p "$B0"
if [ -n "${BASE_OBJS:-}" ] && [ -d "$BASE_OBJS" ]; then
    for f in "$BASE_OBJS"/*.o "$BASE_OBJS"/cxx.cfg "$BASE_OBJS"/ref.cfg \
             "$BASE_OBJS"/zturbo.cfg; do
        case ${f##*/} in ztur.o|zapi_tur.o) continue ;; esac
        [ -f "$f" ] && cp -p "$f" "$B0/"
    done
fi
shared="$B0/zt_main.o $B0/zt_harness.o $B0/zapi_ref.o $B0/zref.o"
for t in $(for m; do field "$m" Tests; done | tr ' ' '\n' | sort -u); do
    shared="$shared $B0/$t.o"
done
# shellcheck disable=SC2086
if ! $MK -j"$JOBS" O="$B0" TUR="$OUT/src" ZTURBO_H="$TREE/zturbo.h" $shared \
        >"$OUT/base.log" 2>&1; then
    echo "mutation-selftest: BUILD FAILED (shared objects; $OUT/base.log)"
    tail -n 20 "$OUT/base.log"
    exit 1
fi
echo "mutation-selftest: $# mutants, $JOBS at a time; shared objects in" \
     "$(($(date +%s) - t0))s"

# one NAME: build and run it; writes OUT/NAME.result (one line)
one() {
    m=$1
    d=$OUT/$m
    s=$(date +%s)
    filter=$(field "$m" Filter)
    tests=$(field "$m" Tests)
    cflags=$(field "$m" Cflags)
    envs=$(field "$m" Env)
    needs=$(field "$m" Needs)
    res=$OUT/$m.result
    if [ "$needs" = simd ] && ! simd_cpu; then
        echo "SKIP $m (this CPU lacks PCLMULQDQ, SSE4.1 or AVX2)" >"$res"
        return
    fi
    mkdir -p "$d/o" "$d/tree"
    cp -pR "$OUT/src"/. "$d/tree/"
    if [ "$CONTROL" != 1 ] &&
       ! (cd "$d/tree" && patch -p1 -F0 -N -s <"$HERE/$m.patch") >"$d/apply.log" 2>&1; then
        echo "FAIL $m NOT APPLIED ($d/apply.log)" >"$res"
        return
    fi
    cmd=$(field "$m" Command)
    if [ -n "$cmd" ]; then
        # shellcheck disable=SC2086
        (cd "$TOP" && env $envs TREE="$d/tree" REF="$REF" ZINC="$ZINC" \
             TUR_LIB="$TREE/libz.a" timeout "$LIMIT" sh -c "$cmd") >"$d/test.log" 2>&1
        rc=$?
        secs="$(($(date +%s) - s)) s"
        if [ "$CONTROL" = 1 ] && [ $rc -eq 77 ]; then
            echo "SKIP $m control (its command could not run here: $(tail -n 1 "$d/test.log"))" >"$res"
        elif [ "$CONTROL" = 1 ]; then
            if [ $rc -eq 0 ]; then
                echo "PASS $m control: its command passes on the tree itself ($secs)" >"$res"
            else
                echo "FAIL $m control: its command FAILS on the tree itself (exit $rc, $secs; $d/test.log)" >"$res"
            fi
        elif [ $rc -eq 77 ]; then
            echo "SKIP $m (its command could not run here: $(tail -n 1 "$d/test.log"))" >"$res"
        elif [ $rc -eq 124 ]; then
            echo "FAIL $m TIMEOUT after ${LIMIT}s ($d/test.log)" >"$res"
        elif [ $rc -ne 0 ]; then
            echo "PASS $m CAUGHT by its command: $(tail -n 1 "$d/test.log") ($secs)" >"$res"
        else
            echo "FAIL $m SURVIVED: its command passes ($secs) -- a test is missing" >"$res"
        fi
        return
    fi
    cp -p "$B0"/*.o "$B0"/*.cfg "$d/o/" 2>/dev/null
    zh=$TREE/zturbo.h
    grep -q '^+++ b/zturbo.h' "$HERE/$m.patch" && zh=$d/tree/zturbo.h
    # shellcheck disable=SC2086
    if ! $MK O="$d/o" TUR="$d/tree" TUR_CFLAGS="$cflags" TESTS="$tests" \
            ZTURBO_H="$zh" >"$d/build.log" 2>&1; then
        echo "FAIL $m BUILD FAILED ($d/build.log)" >"$res"
        return
    fi
    b=$(($(date +%s) - s))
    # shellcheck disable=SC2086
    env $envs timeout "$LIMIT" "$d/o/zt_tests" --gtest_filter="$filter" \
        >"$d/test.log" 2>&1
    rc=$?
    secs="build $b s, test $(($(date +%s) - s - b)) s"
    failed=$(sed -n 's/^\[  FAILED  \] \([A-Za-z0-9_]*\.[A-Za-z0-9_]*\)\( (.*\)\{0,1\}$/\1/p' \
             "$d/test.log" | sort -u | tr '\n' ' ')
    ndiff=$(grep -c "ref and tur differ" "$d/test.log")
    ran=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from.*ran.*/\1/p' "$d/test.log" | tail -n 1)
    if [ "${ran:-0}" -eq 0 ] && [ $rc -eq 0 ]; then
        echo "FAIL $m: $filter runs no test (${secs}; $d/test.log)" >"$res"
    elif [ "$CONTROL" = 1 ]; then
        if [ $rc -eq 0 ]; then
            echo "PASS $m control: $filter passes on the tree itself (${secs})" >"$res"
        else
            echo "FAIL $m control: $filter FAILS on the tree itself (exit $rc, ${secs}; $d/test.log)" >"$res"
        fi
    elif [ $rc -eq 124 ]; then
        echo "FAIL $m TIMEOUT after ${LIMIT}s (a mutant must not hang; $d/test.log)" >"$res"
    elif [ $rc -ne 0 ] && [ -n "$failed" ]; then
        n=
        [ "$ndiff" -eq 0 ] || n="$ndiff times \"ref and tur differ\"; "
        echo "PASS $m CAUGHT by ${failed% } (${n}${secs})" >"$res"
    elif [ $rc -ne 0 ]; then
        echo "FAIL $m CRASHED (exit $rc, no failed test listed; ${secs}; $d/test.log)" >"$res"
    else
        echo "FAIL $m SURVIVED: $filter passes (${secs}) -- a test is missing" >"$res"
    fi
}

# JOBS workers, each taking the next mutant not yet claimed (mkdir is atomic)
worker() {
    for m; do
        mkdir "$OUT/$m.claim" 2>/dev/null || continue
        one "$m"
        sed 's/^/mutation-selftest: /' "$OUT/$m.result"
    done
}
i=0
while [ $i -lt "$JOBS" ]; do
    worker "$@" &
    i=$((i + 1))
done
wait

pass=0 fail=0 skip=0
for m; do
    case $(cut -d' ' -f1 "$OUT/$m.result" 2>/dev/null) in
        PASS) pass=$((pass + 1)) ;;
        SKIP) skip=$((skip + 1)) ;;
        *) fail=$((fail + 1)) ;;
    esac
done
what=caught
[ "$CONTROL" = 1 ] && what="passed (control)"
# each mutant that could not run here is a skipped part of the step
# (tools/check.sh counts each "part-skipped:" line as a SKIP)
for m; do
    [ "$CONTROL" != 1 ] || break        # counted once, by the mutants' run
    if [ "$(cut -d' ' -f1 "$OUT/$m.result" 2>/dev/null)" = SKIP ]; then
        echo "part-skipped: mutant $(cut -d' ' -f2- "$OUT/$m.result")"
    fi
done
echo "mutation-selftest: $pass $what, $fail failed, $skip skipped in $(($(date +%s) - t0))s"
[ $fail -eq 0 ]
