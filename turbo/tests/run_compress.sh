#!/bin/sh
# run_compress.sh REF_TREE TURBO_TREE FILE...
#
# Builds zt_compress with two zlib source trees (both compiled with the same
# flags: $CC, default cc, and $CFLAGS, default pair.sh's test flags, -O2;
# linked side by side by turbo/harness/pair.sh), then compresses each
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
CFLAGS=${CFLAGS:-$(sh "$H/pair.sh" cflags test)}
export CFLAGS
sh "$H/pair.sh" build "$B" zt_compress "$REF" "$TUR" "$HERE/zt_compress.c"
echo "run_compress: REF=$REF TURBO=$TUR CFLAGS=$CFLAGS"
exec "$B/zt_compress" "$@"
