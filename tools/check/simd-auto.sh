#!/bin/sh
# simd-auto.sh -- configure --simd=auto on a copy of the tree's sources
# (build/simd-auto): zlib's make test, then zsum on the same sources with
# the dispatch forced each way (ZLIB_TURBO_SIMD_MASK), the 256- and 512-bit
# VPCLMULQDQ tiers where the CPU has them; x86 with PCLMULQDQ, SSE4.1, AVX2
set -eu
. tools/check/lib.sh
need_simd_cpu
d=$B/simd-auto
rm -rf "$d"
mkdir -p "$d"
(cd "$TUR" && git ls-files | tar -cf - -T -) | tar -xf - -C "$d"
(cd "$d" && ./configure --simd=auto && grep -q Z_TURBO_SIMD_AUTO Makefile)
$MAKE -C "$d" all
$MAKE -C "$d" test
objdump -d "$d/libz.so.1" | grep -q pclmul
objdump -d "$d/libz.so.1" | grep -q cpuid
objdump -d "$d/libz.so.1" | grep -q 'vpclmul.*zmm'
f="$(sh turbo/harness/pair.sh cflags test) -DZ_TURBO_SIMD_AUTO -DZ_TURBO_SIMD_TEST"
# dispatch MASK EXPECTED: zsum with ZLIB_TURBO_SIMD_MASK=MASK (none: the
# CPU's own choice) reports dispatch EXPECTED
dispatch() { zsum_dispatch "$d" "$f" "$1" "$2" "$LOG/zsum-auto.txt"; }
dispatch "" 'CRC-32 .*PCLMULQDQ, Adler-32 AVX2'
dispatch 0 'CRC-32 tables, Adler-32 portable'
dispatch 6 'CRC-32 PCLMULQDQ, Adler-32 AVX2'
if cpu_has vpclmulqdq; then
    dispatch 14 'CRC-32 VPCLMULQDQ + PCLMULQDQ, Adler-32 AVX2'
else
    skip_part "the 256-bit tier: this CPU lacks VPCLMULQDQ"
fi
if cpu_has vpclmulqdq && cpu_has avx512f; then
    dispatch 30 'CRC-32 VPCLMULQDQ-512 + VPCLMULQDQ + PCLMULQDQ, Adler-32 AVX2'
else
    skip_part "the 512-bit tier: this CPU lacks AVX-512F or VPCLMULQDQ"
fi
