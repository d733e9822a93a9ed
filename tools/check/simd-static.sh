#!/bin/sh
# simd-static.sh -- zsum on the tree's sources with configure --simd's flags:
# the wider CRC-32 loops chosen at run time, each forced in turn
# (ZLIB_TURBO_SIMD_MASK), and built in by -mvpclmulqdq, and -mavx512f
# -mvpclmulqdq, where the CPU has them; x86 with PCLMULQDQ, SSE4.1, AVX2
set -eu
. tools/check/lib.sh
need_simd_cpu
f="$(sh turbo/harness/pair.sh cflags test) -DZ_TURBO_SIMD -mpclmul -msse4.1 -mavx2"
# dispatch CFLAGS MASK EXPECTED: zsum built with CFLAGS, run with
# ZLIB_TURBO_SIMD_MASK=MASK (none: the CPU's own choice), reports dispatch
# EXPECTED (the 128-bit CRC-32 and AVX2 Adler-32 are built in: always used)
dispatch() { zsum_dispatch "$TUR" "$1" "$2" "$3" "$LOG/zsum-static.txt"; }
t="$f -DZ_TURBO_SIMD_TEST"
dispatch "$t" 6 'CRC-32 PCLMULQDQ, Adler-32 AVX2'
if cpu_has vpclmulqdq; then
    dispatch "$t" 14 'CRC-32 VPCLMULQDQ + PCLMULQDQ, Adler-32 AVX2'
    sh turbo/tests/zsum.sh "$TUR" "$f -mvpclmulqdq" -q
else
    skip_part "the 256-bit tier: this CPU lacks VPCLMULQDQ"
fi
if cpu_has vpclmulqdq && cpu_has avx512f; then
    dispatch "$t" "" 'CRC-32 VPCLMULQDQ-512 + VPCLMULQDQ + PCLMULQDQ, Adler-32 AVX2'
    sh turbo/tests/zsum.sh "$TUR" "$f -mavx512f -mvpclmulqdq" -q
else
    skip_part "the 512-bit tier: this CPU lacks AVX-512F or VPCLMULQDQ"
fi
