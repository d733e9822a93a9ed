#!/bin/sh
# simd-dispatch.sh TREE [LOG [top]] -- zsum on TREE's sources built as configure
# --simd=auto builds them (-DZ_TURBO_SIMD_AUTO, with -DZ_TURBO_SIMD_TEST for
# ZLIB_TURBO_SIMD_MASK): the CPU's own choice must be exactly the widest
# tier /proc/cpuinfo says the CPU has (a dispatch that misses a feature
# only loses speed, and only this catches it), and every checksum must be
# right with the dispatch forced to each tier the CPU has ("top": only the
# CPU's own choice).  Run by the simd-auto step, and (top) by zsimd.c's
# mutant.  x86 with PCLMULQDQ, SSE4.1,
# AVX2 (else skipped, 77).
set -eu
. tools/check/lib.sh
need_simd_cpu
T=${1:?usage: simd-dispatch.sh TREE [LOG]}
L=${2:-${TMPDIR:-/tmp}/zsum-dispatch.$$.txt}
f="$(sh turbo/harness/pair.sh cflags test) -DZ_TURBO_SIMD_AUTO -DZ_TURBO_SIMD_TEST"
t128='CRC-32 PCLMULQDQ, Adler-32 AVX2'
t256='CRC-32 VPCLMULQDQ + PCLMULQDQ, Adler-32 AVX2'
t512='CRC-32 VPCLMULQDQ-512 + VPCLMULQDQ + PCLMULQDQ, Adler-32 AVX2'
top=$t128
cpu_has vpclmulqdq && top=$t256
cpu_has vpclmulqdq && cpu_has avx512f && top=$t512
# dispatch MASK EXPECTED: zsum with ZLIB_TURBO_SIMD_MASK=MASK (none: the
# CPU's own choice) passes and reports exactly "dispatch: EXPECTED"
dispatch() {
    zsum_dispatch "$T" "$f" "$1" "$2\$" "$L"
}
dispatch "" "$top"
if [ "${3:-}" = top ]; then
    echo "simd-dispatch: the CPU's own choice is $top"
    exit 0
fi
dispatch 0 'CRC-32 tables, Adler-32 portable'
dispatch 6 "$t128"
if cpu_has vpclmulqdq; then
    dispatch 14 "$t256"
else
    skip_part "the 256-bit tier: this CPU lacks VPCLMULQDQ"
fi
if cpu_has vpclmulqdq && cpu_has avx512f; then
    dispatch 30 "$t512"
else
    skip_part "the 512-bit tier: this CPU lacks AVX-512F or VPCLMULQDQ"
fi
echo "simd-dispatch: the CPU's own choice is $top"
