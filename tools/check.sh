#!/bin/sh
# tools/check.sh -- zlib-turbo's test suite (run by `make check`)
#
# Runs every check against the two trees `make` built, build/zlib-1.3.2
# (pristine) and build/zlib-turbo (patched), logs each under build/check/,
# and ends with the line "N passed, N failed".  Exits non-zero on any failure.
#
#   ZT_MODE=full make check     the long mode of the differential suites
#   ZT_CORPUS=DIR               corpus to draw test data from
#                               (default ../shared/corpus when it exists)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
B=$TOP/build
REF=$B/zlib-1.3.2
TUR=$B/zlib-turbo
LOG=$B/check
MAKE=${MAKE:-make}
rm -rf "$LOG"
mkdir -p "$LOG"

pass=0
fail=0
failed=
t0=$(date +%s)

# record NAME STATUS: count one result
record() {
    if [ "$2" -eq 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        failed="$failed $1"
    fi
}

# step NAME COMMAND...: run one check, its output in build/check/NAME.log
step() {
    name=$1
    shift
    s=$(date +%s)
    ("$@") >"$LOG/$name.log" 2>&1
    rc=$?
    e=$(($(date +%s) - s))
    if [ $rc -eq 0 ]; then
        printf 'PASS  %-34s %4ss\n' "$name" "$e"
    else
        printf 'FAIL  %-34s %4ss  (build/check/%s.log)\n' "$name" "$e" "$name"
        tail -n 15 "$LOG/$name.log" | sed 's/^/      | /'
    fi
    record "$name" $rc
}

# --- zlib's own tests, on both trees -----------------------------------------
zlib_test() { $MAKE -C "$1" test; }
infcover() {
    $MAKE -C "$1" infcover && (cd "$1" && ./infcover)
}
step zlib-test-pristine zlib_test "$REF"
step zlib-test-turbo zlib_test "$TUR"
step infcover-turbo infcover "$TUR"

# --- the interface: zlib's, unchanged, plus ours -----------------------------
interface() {
    set -e
    cmp "$B/src/zlib-1.3.2/zlib.h" "$TUR/zlib.h"
    echo "zlib.h is byte-identical to zlib 1.3.2's"
    readelf -d "$TUR/libz.so.1" | grep -q 'SONAME.*\[libz.so.1\]'
    echo "soname libz.so.1"
    # every symbol pristine exports, with the same version, is still there
    objdump -T "$REF/libz.so.1" | awk '$2 == "g" { print $(NF-1), $NF }' |
        sort >"$LOG/syms-ref"
    objdump -T "$TUR/libz.so.1" | awk '$2 == "g" { print $(NF-1), $NF }' |
        sort >"$LOG/syms-tur"
    missing=$(comm -23 "$LOG/syms-ref" "$LOG/syms-tur")
    [ -z "$missing" ] || { echo "missing or re-versioned: $missing"; exit 1; }
    echo "all $(wc -l <"$LOG/syms-ref") versioned symbols of zlib 1.3.2 kept"
    extra=$(comm -13 "$LOG/syms-ref" "$LOG/syms-tur" | grep -v '^ZLIB_TURBO_1.0 ' || true)
    [ -z "$extra" ] || { echo "new symbols outside ZLIB_TURBO_1.0: $extra"; exit 1; }
    for f in zlibTurboVersion deflatePrepareDictionary deflateUseDictionary \
             deflateFreeDictionary; do
        grep -q "^ZLIB_TURBO_1.0 $f\$" "$LOG/syms-tur" ||
            { echo "$f not exported under ZLIB_TURBO_1.0"; exit 1; }
        grep -q "ZEXPORT $f(" "$TUR/zturbo.h" ||
            { echo "$f not declared in zturbo.h"; exit 1; }
        echo "$f exported under ZLIB_TURBO_1.0 and declared in zturbo.h"
    done
    cat >"$LOG/ver.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "zturbo.h"
int main(void) {
    printf("zlibVersion() = %s, zlibTurboVersion() = %s\n", zlibVersion(),
           zlibTurboVersion());
    return strcmp(zlibVersion(), "1.3.2") != 0 ||
           strcmp(zlibTurboVersion(), ZLIB_TURBO_VERSION) != 0 ||
           strcmp(ZLIB_TURBO_VERSION, "1.0.0") != 0;
}
EOF
    ${CC:-cc} -I"$TUR" -o "$LOG/ver" "$LOG/ver.c" -L"$TUR" -lz
    LD_LIBRARY_PATH="$TUR" "$LOG/ver"
}
step interface interface

# --- the patch series makes exactly the tree that was tested -----------------
series() {
    set -e
    rm -rf "$LOG/tree"
    sh tools/mktree.sh "$B/src/zlib-1.3.2" "$LOG/tree"
    a=$(git -C "$TUR" rev-parse 'HEAD^{tree}')
    b=$(git -C "$LOG/tree" rev-parse 'HEAD^{tree}')
    git -C "$LOG/tree" log --oneline
    if [ "$a" != "$b" ]; then
        echo "build/zlib-turbo differs from what src/ and patches/ make:"
        echo "commit your edits there and run 'make refresh'"
        exit 1
    fi
    d=$(git -C "$TUR" status --porcelain --untracked-files=no)
    [ -z "$d" ] || { echo "uncommitted edits in build/zlib-turbo: $d"; exit 1; }
    echo "src/ + patches/ make exactly build/zlib-turbo"
    rm -rf "$LOG/tree"
}
step patch-series series

# --- the fetch refuses what does not verify, and leaves nothing behind -------
fetch_refuses() {
    set -e
    w=$LOG/fetch
    rm -rf "$w"
    mkdir -p "$w/x"
    tar -xzf "$B/dl/zlib-1.3.2.tar.gz" -C "$w/x"
    # one byte of one file changed
    f=$(ls -d "$w"/x/*/)deflate.c
    sed -i 's/TOO_FAR 4096/TOO_FAR 4095/' "$f"
    (cd "$w/x" && tar -czf "$w/bad.tar.gz" .)
    if ZLIB_TARBALL="$w/bad.tar.gz" sh upstream/fetch.sh "$w/out"; then
        echo "a tampered tarball was accepted"
        exit 1
    fi
    [ ! -e "$w/out" ] || { echo "something was left at the destination"; exit 1; }
    ZLIB_TARBALL="$B/dl/zlib-1.3.2.tar.gz" sh upstream/fetch.sh "$w/good"
    echo "tampered tarball refused, nothing left behind; the cached one verifies"
    rm -rf "$w"
}
step fetch-verifies fetch_refuses

# --- CMake build of the patched tree, with zlib's CMake tests ----------------
cmake_build() {
    set -e
    rm -rf "$B/cmake-turbo"
    cmake -S "$TUR" -B "$B/cmake-turbo" -DCMAKE_BUILD_TYPE=Release \
        ${CC:+-DCMAKE_C_COMPILER="$CC"}
    cmake --build "$B/cmake-turbo" -j2
    (cd "$B/cmake-turbo" && ctest --output-on-failure)
    objdump -T "$B/cmake-turbo/libz.so.1" | grep -q 'ZLIB_TURBO_1.0 *zlibTurboVersion'
    echo "CMake build exports zlibTurboVersion under ZLIB_TURBO_1.0"
}
step cmake-turbo cmake_build

# --- the differential suite: pristine and turbo in one program ---------------
harness() {
    $MAKE -C turbo/tests O="$B/tests" REF="$REF/libz.a" TUR="$TUR/libz.a" \
        ZINC="$REF"
}
step build-differential-suite harness
if [ -x "$B/tests/zt_tests" ]; then
    s=$(date +%s)
    "$B/tests/zt_tests" >"$LOG/differential-suite.log" 2>&1
    rc=$?
    e=$(($(date +%s) - s))
    np=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*/\1/p' "$LOG/differential-suite.log")
    nf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\{0,1\}, listed below.*/\1/p' "$LOG/differential-suite.log")
    np=${np:-0}
    nf=${nf:-0}
    if [ $rc -ne 0 ] && [ "$nf" -eq 0 ]; then nf=1; fi
    pass=$((pass + np))
    fail=$((fail + nf))
    [ "$nf" -eq 0 ] || failed="$failed differential-suite"
    printf '%s  %-34s %4ss  (%s passed, %s failed; build/check/differential-suite.log)\n' \
        "$([ "$nf" -eq 0 ] && echo PASS || echo FAIL)" differential-suite "$e" "$np" "$nf"
    [ "$nf" -eq 0 ] || grep '^\[  FAILED  \]' "$LOG/differential-suite.log" |
        head -n 20 | sed 's/^/      | /'
fi

# --- checksums: every length and alignment against a plain reference --------
step checksums-exhaustive sh turbo/tests/zsum.sh "$TUR" "${ZSUM_CFLAGS:--O2}" -q

# --- deflate differential fuzzer: a short run, ASan then UBSan --------------
# (skipped, and counted as passed, where clang has no libFuzzer)
fuzz_deflate() {
    rm -rf "$B/check/fuzz-corpus"
    TIME=${FUZZ_TIME:-10} FUZZ_BUILD="$B/check/fuzz" \
        sh turbo/tests/fuzz/run_fuzz_deflate.sh "$B/src/zlib-1.3.2" "$TUR" \
        "$B/check/fuzz-corpus"
    rc=$?
    [ $rc -eq 77 ] && return 0
    return $rc
}
step fuzz-deflate fuzz_deflate

# --- inflate differential fuzzer: a short run (ASan+UBSan) -------------------
fuzz_inflate() {
    probe=$LOG/fuzz-probe
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$probe.c"
    if ! ${CLANG:-clang} -fsanitize=fuzzer "$probe.c" -o "$probe" >/dev/null 2>&1; then
        echo "clang has no libFuzzer: skipped"
        return 0
    fi
    rm -rf "$B/check/fuzz-inflate-corpus"
    TIME=${FUZZ_TIME:-10} BUILD="$B/check/fuzz-inflate" CC=${CLANG:-clang} \
        sh turbo/tests/fuzz/run_fuzz.sh "$B/src/zlib-1.3.2" "$TUR" \
        "$B/check/fuzz-inflate-corpus" || return 1
    # inputs that once found a difference (turbo/tests/fuzz/regressions/)
    "$B/check/fuzz-inflate/fuzz_inflate" turbo/tests/fuzz/regressions/inflate-*.bin
}
step fuzz-inflate fuzz_inflate

# --- the SIMD checksums (turbo/TECHNIQUES.md, "SIMD checksums") -------------
# the CRC-32 folding constants: derived and checked by a program, and the
# same lines as in crc32_simd.c
crc_constants() {
    set -e
    ${CC:-cc} -O2 -o "$LOG/crc32_fold_consts" turbo/tests/crc32_fold_consts.c
    "$LOG/crc32_fold_consts" >"$LOG/crc32_fold_consts.txt"
    cat "$LOG/crc32_fold_consts.txt"
    while IFS= read -r line; do
        grep -qxF "$line" "$TUR/crc32_simd.c" ||
            { echo "not in crc32_simd.c: $line"; exit 1; }
    done <"$LOG/crc32_fold_consts.txt"
    echo "all $(wc -l <"$LOG/crc32_fold_consts.txt") constants are crc32_simd.c's"
}
step crc32-fold-constants crc_constants

is_x86() { case $(uname -m) in x86_64|i?86|amd64) return 0 ;; esac; return 1; }
cpu_has() { grep -qw "$1" /proc/cpuinfo 2>/dev/null; }

# the default build: no SIMD instructions (no pclmul, no VEX-encoded AVX
# instruction) and no CPU detection (cpuid, xgetbv)
no_simd_default() {
    set -e
    objdump -d --no-show-raw-insn "$TUR/libz.so.1" "$TUR/libz.a" \
        >"$LOG/default.dis"
    bad=$(grep -E 'pclmul|cpuid|xgetbv|%ymm|%zmm' "$LOG/default.dis" | head -n 5)
    vex=$(awk -F'\t' 'NF >= 2 && $2 ~ /^v[a-z]/' "$LOG/default.dis" | head -n 5)
    [ -z "$bad$vex" ] || { echo "in the default build: $bad $vex"; exit 1; }
    echo "default build: $(grep -c '' "$LOG/default.dis") lines of disassembly," \
        "no pclmul, cpuid, xgetbv or AVX instruction"
}

# configure --simd=auto on a copy of the tree's sources: zlib's make test,
# then zsum on the same sources with the dispatch forced each way
simd_auto() {
    set -e
    d=$B/simd-auto
    rm -rf "$d"
    mkdir -p "$d"
    (cd "$TUR" && git ls-files | tar -cf - -T -) | tar -xf - -C "$d"
    (cd "$d" && ./configure --simd=auto && grep -q Z_TURBO_SIMD_AUTO Makefile)
    $MAKE -C "$d" all
    $MAKE -C "$d" test
    objdump -d "$d/libz.so.1" | grep -q pclmul
    objdump -d "$d/libz.so.1" | grep -q cpuid
    f="-O2 -DZ_TURBO_SIMD_AUTO -DZ_TURBO_SIMD_TEST"
    sh turbo/tests/zsum.sh "$d" "$f" -q | tee "$LOG/zsum-auto.txt"
    grep -q 'dispatch: CRC-32 .*PCLMULQDQ, Adler-32 AVX2' "$LOG/zsum-auto.txt"
    ZLIB_TURBO_SIMD_MASK=0 sh turbo/tests/zsum.sh "$d" "$f" -q | tee "$LOG/zsum-auto.txt"
    grep -q 'dispatch: CRC-32 tables, Adler-32 portable' "$LOG/zsum-auto.txt"
    ZLIB_TURBO_SIMD_MASK=6 sh turbo/tests/zsum.sh "$d" "$f" -q | tee "$LOG/zsum-auto.txt"
    grep -q 'dispatch: CRC-32 PCLMULQDQ, Adler-32 AVX2' "$LOG/zsum-auto.txt"
    # the 256- and 512-bit VPCLMULQDQ tiers (masks 14 and 30), where the CPU
    # has them
    objdump -d "$d/libz.so.1" | grep -q 'vpclmul.*zmm'
    if cpu_has vpclmulqdq; then
        ZLIB_TURBO_SIMD_MASK=14 sh turbo/tests/zsum.sh "$d" "$f" -q | tee "$LOG/zsum-auto.txt"
        grep -q 'dispatch: CRC-32 VPCLMULQDQ + PCLMULQDQ, Adler-32 AVX2' "$LOG/zsum-auto.txt"
    else
        echo "simd-auto: 256-bit tier not forced (this CPU lacks VPCLMULQDQ)"
    fi
    if cpu_has vpclmulqdq && cpu_has avx512f; then
        ZLIB_TURBO_SIMD_MASK=30 sh turbo/tests/zsum.sh "$d" "$f" -q | tee "$LOG/zsum-auto.txt"
        grep -q 'dispatch: CRC-32 VPCLMULQDQ-512 + VPCLMULQDQ + PCLMULQDQ, Adler-32 AVX2' "$LOG/zsum-auto.txt"
    else
        echo "simd-auto: 512-bit tier not forced (this CPU lacks AVX-512F or VPCLMULQDQ)"
    fi
}

# the configure --simd flags on the same sources (+ -mvpclmulqdq, and
# -mavx512f -mvpclmulqdq, where the CPU has them)
simd_static() {
    set -e
    f="-O2 -DZ_TURBO_SIMD -mpclmul -msse4.1 -mavx2"
    sh turbo/tests/zsum.sh "$TUR" "$f" -q
    if cpu_has vpclmulqdq; then
        sh turbo/tests/zsum.sh "$TUR" "$f -mvpclmulqdq" -q
    fi
    if cpu_has vpclmulqdq && cpu_has avx512f; then
        sh turbo/tests/zsum.sh "$TUR" "$f -mavx512f -mvpclmulqdq" -q
    fi
}

if is_x86; then
    step simd-absent-by-default no_simd_default
    if cpu_has pclmulqdq && cpu_has sse4_1 && cpu_has avx2; then
        step simd-auto simd_auto
        step simd-static simd_static
    else
        for n in simd-auto simd-static; do
            printf 'PASS  %-34s %4ss  (skipped: this CPU lacks PCLMULQDQ, SSE4.1 or AVX2)\n' "$n" 0
            record "$n" 0
        done
    fi
else
    for n in simd-absent-by-default simd-auto simd-static; do
        printf 'PASS  %-34s %4ss  (skipped: not x86)\n' "$n" 0
        record "$n" 0
    done
fi

# --- the harness can fail: pristine built with a changed decision ------------
selftest() {
    $MAKE -C turbo/tests selftest O="$B/tests" REF="$REF/libz.a" \
        ZINC="$REF" PRISTINE="$B/src/zlib-1.3.2"
}
step harness-selftest selftest

# --- make install and make dist ----------------------------------------------
install_check() {
    set -e
    d=$LOG/inst
    rm -rf "$d"
    $MAKE -s install PREFIX=/opt/zt DESTDIR="$d" >/dev/null
    for f in lib/libz.so.1 lib/libz.a include/zlib.h include/zconf.h \
             include/zturbo.h lib/pkgconfig/zlib.pc; do
        [ -e "$d/opt/zt/$f" ] || { echo "not installed: $f"; exit 1; }
        echo "installed $f"
    done
    grep -q '^prefix=/opt/zt' "$d/opt/zt/lib/pkgconfig/zlib.pc"
    ${CC:-cc} -I"$d/opt/zt/include" -o "$d/ver" "$LOG/ver.c" \
        -L"$d/opt/zt/lib" -lz
    LD_LIBRARY_PATH="$d/opt/zt/lib" "$d/ver"
    rm -rf "$d"
}
step install install_check

dist_check() {
    set -e
    $MAKE -s dist
    d=$LOG/dist
    rm -rf "$d"
    mkdir -p "$d"
    tar -xzf zlib-turbo-*.tar.gz -C "$d"
    cd "$d"/zlib-turbo-*
    [ -f zturbo.h ] && [ -f turbo/TECHNIQUES.md ] && [ ! -d .git ]
    ./configure
    $MAKE test
    $MAKE install prefix="$d/inst"
    [ -f "$d/inst/include/zturbo.h" ] && [ -f "$d/inst/lib/libz.so.1" ]
    echo "the dist tarball builds, tests and installs on its own"
    cd "$TOP"
    rm -rf "$d"
}
step dist dist_check

e=$(($(date +%s) - t0))
echo
echo "make check took ${e}s${failed:+; failed:$failed}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
