#!/bin/sh
# zsum_bench.sh OUTDIR [CFLAGS]
#
# Builds turbo/bench/zsum_bench against pristine zlib 1.3.2 (build/zlib-1.3.2)
# and zlib-turbo (build/zlib-turbo), both compiled here from their sources
# with the same $CC and CFLAGS (default: pair.sh's bench flags, -O2) and
# linked side by side by turbo/harness/pair.sh.  The program lands in
# OUTDIR/zsum_bench.
# TUR_CFLAGS: more flags for zlib-turbo only, e.g. its SIMD builds:
#   TUR_CFLAGS="-DZ_TURBO_SIMD -mpclmul -msse4.1 -mavx2"   (configure --simd)
#   TUR_CFLAGS="-DZ_TURBO_SIMD_AUTO"                       (configure --simd=auto)
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: zsum_bench.sh OUTDIR [CFLAGS]}
H=$TOP/turbo/harness
CFLAGS=${2:-$(sh "$H/pair.sh" cflags bench)}
export CFLAGS
sh "$H/pair.sh" build "$OUT" zsum_bench "$TOP/build/zlib-1.3.2" \
    "$TOP/build/zlib-turbo" "$TOP/turbo/bench/zsum_bench.c" -- -lpthread
