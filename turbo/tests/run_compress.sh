#!/bin/sh
# run_compress.sh REF_TREE TURBO_TREE FILE...
#
# Builds zt_compress with two zlib source trees (both compiled with the same
# flags: $CC, default cc, and $CFLAGS, default -O2), then compresses each
# FILE at levels 0-9 with both: the bytes must be identical (and inflate back
# to the file); prints MB/s (median of $ZT_REPS, default 5) and TURBO/REF.
# Exits non-zero on any difference.  Build output: $ZT_BUILD (default
# build/tests/compress in the repository).
set -eu
[ $# -ge 3 ] || { echo "usage: $0 REF_TREE TURBO_TREE FILE..." >&2; exit 2; }
REF=$1 TUR=$2
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
H=$REPO/turbo/harness
B=${ZT_BUILD:-$REPO/build/tests/compress}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
export CC CFLAGS
mkdir -p "$B"
sh "$H/mkzobj.sh" ref_ "$B/zref.o" "$REF"
sh "$H/mkzobj.sh" tur_ "$B/ztur.o" "$TUR"
# shellcheck disable=SC2086
$CC $CFLAGS -I"$H" -I"$REF" -DZAPI_PREFIX=ref_ -DZAPI_TABLE=zapi_ref -c "$H/zapi_impl.c" -o "$B/zapi_ref.o"
# shellcheck disable=SC2086
$CC $CFLAGS -I"$H" -I"$REF" -DZAPI_PREFIX=tur_ -DZAPI_TABLE=zapi_tur -c "$H/zapi_impl.c" -o "$B/zapi_tur.o"
# shellcheck disable=SC2086
$CC $CFLAGS -I"$H" -I"$REF" "$HERE/zt_compress.c" "$B/zapi_ref.o" "$B/zapi_tur.o" \
    "$B/zref.o" "$B/ztur.o" -o "$B/zt_compress"
echo "run_compress: REF=$REF TURBO=$TUR CFLAGS=$CFLAGS"
exec "$B/zt_compress" "$@"
