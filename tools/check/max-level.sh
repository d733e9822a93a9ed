#!/bin/sh
# max-level.sh -- zlib's level check, for those who need it: a zlib-turbo
# built with ./configure --max-level=9 (and cmake -DZLIB_TURBO_MAX_LEVEL=9),
# or run with ZLIB_TURBO_MAX_LEVEL=9, answers every call that takes a level
# exactly as pristine zlib 1.3.2 does (turbo/tests/max_level_calls.c:
# deflateInit(), deflateInit2(), deflateParams() before and after data,
# compress2(), gzsetparams(), levels -2 to 13); without it the answers
# differ (the control: levels 10-12 are accepted); Z_TURBO_LEVEL(n) reaches
# 0-12 whatever the most level, so the zturbo command's -11 writes the same
# bytes under ZLIB_TURBO_MAX_LEVEL=9; configure refuses --max-level=8.  And
# CPython's own test_zlib, whole (test_badlevel included), passes on the
# --max-level=9 library and on the default one with ZLIB_TURBO_MAX_LEVEL=9,
# and fails test_badlevel on the default one without it (the control).
# Builds in build/max-level; needs cc, make; cmake and python3.11 with its
# test suite (libpython3.11-testsuite) for their parts (else SKIP them).
set -eu
. tools/check/lib.sh
: "${B:?run by tools/check.sh}" "${REF:?}" "${TUR:?}"
CC=${CC:-cc}
W=$B/max-level
rm -rf "$W"
mkdir -p "$W/conf" "$W/bad" "$W/cmake"
CALLS=turbo/tests/max_level_calls.c
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
have() { command -v "$1" >/dev/null 2>&1; }

# calls NAME INCLUDE LIB [-DWITH_ZTURBO]: build the calls program
calls() {
    $CC -O2 -Wall -Wextra -Werror ${4:-} -I"$2" "$CALLS" "$3" -lpthread \
        -o "$W/calls-$1"
}
calls ref "$REF" "$REF/libz.a"
calls tur "$TUR" "$TUR/libz.a" -DWITH_ZTURBO
"$W/calls-ref" plain "$W/g.gz" >"$W/ref.txt"
"$W/calls-tur" plain "$W/g.gz" >"$W/tur.txt"
ZLIB_TURBO_MAX_LEVEL=9 "$W/calls-tur" plain "$W/g.gz" >"$W/tur-env9.txt"
ZLIB_TURBO_MAX_LEVEL=9 "$W/calls-tur" turbo "$W/g.gz" >"$W/tur-env9-T.txt"
# the lines of levels 0-12 without a most level, for Z_TURBO_LEVEL()
grep -E '^level ([0-9]|1[0-2]) ' "$W/tur.txt" >"$W/tur-0-12.txt"
[ "$(wc -l <"$W/ref.txt")" -eq 96 ] || bad "the calls program printed $(wc -l <"$W/ref.txt") lines, not 96"
cmp -s "$W/ref.txt" "$W/tur-env9.txt" &&
    echo "ZLIB_TURBO_MAX_LEVEL=9: every call answers as pristine zlib" ||
    bad "ZLIB_TURBO_MAX_LEVEL=9 differs from pristine: diff $W/ref.txt $W/tur-env9.txt"
if cmp -s "$W/ref.txt" "$W/tur.txt"; then
    bad "control: the default library answers levels 10-12 as pristine does"
else
    echo "control: without it, $(diff "$W/ref.txt" "$W/tur.txt" | grep -c '^>') lines differ (levels 10-12 accepted)"
fi
cmp -s "$W/tur-0-12.txt" "$W/tur-env9-T.txt" &&
    echo "Z_TURBO_LEVEL(0..12) under ZLIB_TURBO_MAX_LEVEL=9: levels 0-12" ||
    bad "Z_TURBO_LEVEL() under the most level: diff $W/tur-0-12.txt $W/tur-env9-T.txt"

# ./configure --max-level=9, from the tree's sources, in a folder of its own
(cd "$W/conf" && "$TUR/configure" --max-level=9 >configure.out 2>&1 &&
 ${MAKE:-make} -j2 libz.a libz.so.1.3.2 >make.out 2>&1) ||
    { tail -n 20 "$W/conf/configure.out" "$W/conf/make.out" 2>/dev/null; exit 1; }
calls conf "$TUR" "$W/conf/libz.a" -DWITH_ZTURBO
"$W/calls-conf" plain "$W/g.gz" >"$W/conf.txt"
ZLIB_TURBO_MAX_LEVEL=12 "$W/calls-conf" plain "$W/g.gz" >"$W/conf-env12.txt"
"$W/calls-conf" turbo "$W/g.gz" >"$W/conf-T.txt"
cmp -s "$W/ref.txt" "$W/conf.txt" &&
    echo "./configure --max-level=9: every call answers as pristine zlib" ||
    bad "--max-level=9 differs from pristine: diff $W/ref.txt $W/conf.txt"
cmp -s "$W/tur.txt" "$W/conf-env12.txt" &&
    echo "--max-level=9 with ZLIB_TURBO_MAX_LEVEL=12: levels 10-12 again" ||
    bad "ZLIB_TURBO_MAX_LEVEL=12 on --max-level=9: diff $W/tur.txt $W/conf-env12.txt"
cmp -s "$W/tur-0-12.txt" "$W/conf-T.txt" ||
    bad "Z_TURBO_LEVEL() on --max-level=9: diff $W/tur-0-12.txt $W/conf-T.txt"
if (cd "$W/bad" && "$TUR/configure" --max-level=8 >configure.out 2>&1); then
    bad "configure accepted --max-level=8"
else
    echo "configure refuses --max-level=8"
fi

# the CMake twin
if have cmake; then
    if cmake -S "$TUR" -B "$W/cmake" -DZLIB_TURBO_MAX_LEVEL=9 \
            -DZLIB_BUILD_TESTING=OFF -DZLIB_BUILD_SHARED=OFF >"$W/cmake.out" 2>&1 &&
        cmake --build "$W/cmake" -j 2 >>"$W/cmake.out" 2>&1; then
        lib=$(find "$W/cmake" -name 'libz*.a' | head -n 1)
        calls cmake "$TUR" "$lib" -DWITH_ZTURBO
        "$W/calls-cmake" plain "$W/g.gz" >"$W/cmake.txt"
        cmp -s "$W/ref.txt" "$W/cmake.txt" &&
            echo "cmake -DZLIB_TURBO_MAX_LEVEL=9: every call answers as pristine zlib" ||
            bad "cmake -DZLIB_TURBO_MAX_LEVEL=9 differs: diff $W/ref.txt $W/cmake.txt"
    else
        bad "cmake -DZLIB_TURBO_MAX_LEVEL=9 build: $(tail -n 5 "$W/cmake.out" | tr '\n' ' ')"
    fi
    if cmake -S "$TUR" -B "$W/cmake-bad" -DZLIB_TURBO_MAX_LEVEL=8 >"$W/cmake-bad.out" 2>&1; then
        bad "cmake accepted ZLIB_TURBO_MAX_LEVEL=8"
    fi
else
    skip_part "the CMake switch: no cmake (apt-get install cmake)"
fi

# the zturbo command reaches level 11 under the most level
head -c 300000 "$TUR/deflate.c" >"$W/in"
cat "$TUR/inflate.c" "$TUR/trees.c" >>"$W/in"
"$TUR/zturbo" -11 -c -n "$W/in" >"$W/z11"
ZLIB_TURBO_MAX_LEVEL=9 "$TUR/zturbo" -11 -c -n "$W/in" >"$W/z11-env9" ||
    bad "zturbo -11 under ZLIB_TURBO_MAX_LEVEL=9 exited $?"
"$TUR/zturbo" -9 -c -n "$W/in" >"$W/z9"
if [ "$(wc -c <"$W/z11")" -lt "$(wc -c <"$W/z9")" ] && cmp -s "$W/z11" "$W/z11-env9"; then
    echo "zturbo -11 under ZLIB_TURBO_MAX_LEVEL=9: the same bytes ($(wc -c <"$W/z11") < -9's $(wc -c <"$W/z9"))"
else
    bad "zturbo -11 under ZLIB_TURBO_MAX_LEVEL=9 wrote other bytes (or not smaller than -9)"
fi

# CPython's test_zlib, whole
PY=${CLIENTS_PY-/usr/bin/python3.11}
if [ -n "$PY" ] && [ -x "$PY" ] && "$PY" -c 'import test.test_zlib' 2>/dev/null; then
    # pytest LIBDIR NAME [ENV...]: test_zlib on LIBDIR's libz.so.1 (checked
    # to be the one loaded); its status
    pytest() {
        d=$1 n=$2
        shift 2
        env LD_LIBRARY_PATH="$d" "$@" LD_DEBUG=libs "$PY" -c 'import zlib' 2>&1 |
            grep -q "calling init: $d/libz.so.1\$" ||
            { bad "python did not load $d/libz.so.1"; return 0; }
        r=0
        env LD_LIBRARY_PATH="$d" "$@" "$PY" -m test -v test_zlib >"$W/py-$n.log" 2>&1 || r=$?
        return $r
    }
    pytest "$W/conf" conf &&
        echo "python3.11 -m test test_zlib on --max-level=9: $(grep -c '\.\.\. ok$' "$W/py-conf.log") tests ok, passes whole" ||
        bad "test_zlib on the --max-level=9 library: $W/py-conf.log"
    pytest "$TUR" env9 ZLIB_TURBO_MAX_LEVEL=9 &&
        echo "python3.11 -m test test_zlib with ZLIB_TURBO_MAX_LEVEL=9: passes whole" ||
        bad "test_zlib with ZLIB_TURBO_MAX_LEVEL=9: $W/py-env9.log"
    if pytest "$TUR" default; then
        bad "control: test_zlib passes on the default library (test_badlevel should fail)"
    elif grep -q 'FAIL: test_badlevel' "$W/py-default.log"; then
        echo "control: test_zlib on the default library fails test_badlevel only ($(grep -c '^FAIL:' "$W/py-default.log") failure)"
    else
        bad "control: test_zlib on the default library fails, but not at test_badlevel: $W/py-default.log"
    fi
else
    skip_part "CPython's test_zlib: no python3.11 test suite (apt-get install libpython3.11-testsuite)"
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
