#!/bin/sh
# zsum_bench.sh OUTDIR [CFLAGS]
#
# Builds turbo/bench/zsum_bench against pristine zlib 1.3.2 (build/zlib-1.3.2)
# and zlib-turbo (build/zlib-turbo), both compiled here from their sources
# with the same $CC and CFLAGS (default: zlib's -O3), and renamed side by side
# with turbo/harness/mkzobj.sh.  The program lands in OUTDIR/zsum_bench.
# TUR_CFLAGS: more flags for zlib-turbo only, e.g. its SIMD builds:
#   TUR_CFLAGS="-DZ_TURBO_SIMD -mpclmul -msse4.1 -mavx2"   (configure --simd)
#   TUR_CFLAGS="-DZ_TURBO_SIMD_AUTO"                       (configure --simd=auto)
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: zsum_bench.sh OUTDIR [CFLAGS]}
CFLAGS=${2:--O3}
CC=${CC:-cc}
export CC CFLAGS
mkdir -p "$OUT"
H=$TOP/turbo/harness
sh "$H/mkzobj.sh" ref_ "$OUT/ref.o" "$TOP/build/zlib-1.3.2"
CFLAGS="$CFLAGS ${TUR_CFLAGS:-}" \
    sh "$H/mkzobj.sh" tur_ "$OUT/tur.o" "$TOP/build/zlib-turbo"
for p in ref tur; do
    $CC $CFLAGS -I"$TOP/build/zlib-turbo" -DZAPI_PREFIX=${p}_ \
        -DZAPI_TABLE=zapi_$p -c "$H/zapi_impl.c" -o "$OUT/zapi_$p.o"
done
$CC $CFLAGS -I"$TOP/build/zlib-turbo" -I"$H" -o "$OUT/zsum_bench" \
    "$TOP/turbo/bench/zsum_bench.c" "$OUT/zapi_ref.o" "$OUT/zapi_tur.o" \
    "$OUT/ref.o" "$OUT/tur.o" -lpthread
