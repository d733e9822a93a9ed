#!/bin/sh
# simd-static.sh -- zsum on the tree's sources with configure --simd's flags
# (+ -mvpclmulqdq, and -mavx512f -mvpclmulqdq, where the CPU has them); x86
# with PCLMULQDQ, SSE4.1, AVX2
set -eu
. tools/check/lib.sh
need_simd_cpu
f="$(sh turbo/harness/pair.sh cflags test) -DZ_TURBO_SIMD -mpclmul -msse4.1 -mavx2"
sh turbo/tests/zsum.sh "$TUR" "$f" -q
if cpu_has vpclmulqdq; then
    sh turbo/tests/zsum.sh "$TUR" "$f -mvpclmulqdq" -q
fi
if cpu_has vpclmulqdq && cpu_has avx512f; then
    sh turbo/tests/zsum.sh "$TUR" "$f -mavx512f -mvpclmulqdq" -q
fi
