#!/bin/sh
# dict_bench.sh OUTDIR [CFLAGS] [-- DICT_BENCH_ARGS...]
#
# Builds turbo/bench/dict_bench against pristine zlib 1.3.2
# (build/zlib-1.3.2) and zlib-turbo (build/zlib-turbo), both compiled here
# from their sources with the same $CC and CFLAGS (default: pair.sh's bench
# flags, -O2), and linked side by side by turbo/harness/pair.sh, then runs it
# on a corpus text (../shared/corpus/large/bible.txt, else
# canterbury/lcet10.txt, else the pristine tree's ChangeLog) with a header
# naming the machine, the compiler and the command.  Output on stdout (see
# dict_bench.c).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: dict_bench.sh OUTDIR [CFLAGS] [-- ARGS...]}
shift
H=$TOP/turbo/harness
CFLAGS=$(sh "$H/pair.sh" cflags bench)
if [ $# -gt 0 ] && [ "$1" != "--" ]; then CFLAGS=$1; shift; fi
[ "${1:-}" != "--" ] || shift
CC=${CC:-cc}
export CC CFLAGS
DRIVER_CFLAGS=-Wall sh "$H/pair.sh" build "$OUT" dict_bench \
    "$TOP/build/zlib-1.3.2" "$TOP/build/zlib-turbo" "$TOP/turbo/bench/dict_bench.c"
C=$TOP/../shared/corpus
FILE=
for f in "${DICT_BENCH_FILE:-}" "$C/large/bible.txt" "$C/canterbury/lcet10.txt" \
         "$TOP/build/zlib-1.3.2/ChangeLog"; do
    if [ -n "$f" ] && [ -f "$f" ]; then FILE=$f; break; fi
done
echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "# machine: $(uname -a)"
echo "# cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1), $(nproc 2>/dev/null) cpus, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "# compiler: $CC: $($CC --version 2>/dev/null | head -n 1); CFLAGS=$CFLAGS (both libraries and the bench)"
echo "# command: turbo/bench/dict_bench.sh $OUT $CFLAGS -- $*  (file $FILE)"
"$OUT/dict_bench" "$@" "$FILE"
