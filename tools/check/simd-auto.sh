#!/bin/sh
# simd-auto.sh -- configure --simd=auto on a copy of the tree's sources
# (build/simd-auto): zlib's make test, then zsum on the same sources with
# the dispatch forced each way (ZLIB_TURBO_SIMD_MASK), the 256- and 512-bit
# VPCLMULQDQ tiers where the CPU has them, and the CPU's own choice exactly
# (tools/check/simd-dispatch.sh); x86 with PCLMULQDQ, SSE4.1, AVX2
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
# the dispatch, forced each way, and the CPU's own choice exactly
sh tools/check/simd-dispatch.sh "$d" "$LOG/zsum-auto.txt"
