#!/bin/sh
# dict_bench.sh OUTDIR [CFLAGS] [-- DICT_BENCH_ARGS...]
#
# Builds turbo/bench/dict_bench against pristine zlib 1.3.2
# (build/zlib-1.3.2) and zlib-turbo (build/zlib-turbo), both compiled here
# from their sources with the same $CC and CFLAGS (default: zlib's -O3), and
# renamed side by side with turbo/harness/mkzobj.sh, then runs it on a corpus
# text (../shared/corpus/large/bible.txt, else canterbury/lcet10.txt, else
# the pristine tree's ChangeLog) with a header naming the machine, the
# compiler and the command.  Output on stdout (see dict_bench.c).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: dict_bench.sh OUTDIR [CFLAGS] [-- ARGS...]}
shift
CFLAGS=-O3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then CFLAGS=$1; shift; fi
[ "${1:-}" != "--" ] || shift
CC=${CC:-cc}
export CC CFLAGS
mkdir -p "$OUT"
H=$TOP/turbo/harness
sh "$H/mkzobj.sh" ref_ "$OUT/ref.o" "$TOP/build/zlib-1.3.2"
sh "$H/mkzobj.sh" tur_ "$OUT/tur.o" "$TOP/build/zlib-turbo"
for p in ref tur; do
    $CC $CFLAGS -I"$TOP/build/zlib-turbo" -DZAPI_PREFIX=${p}_ \
        -DZAPI_TABLE=zapi_$p -c "$H/zapi_impl.c" -o "$OUT/zapi_$p.o"
done
$CC $CFLAGS -Wall -I"$TOP/build/zlib-turbo" -I"$H" -o "$OUT/dict_bench" \
    "$TOP/turbo/bench/dict_bench.c" "$OUT/zapi_ref.o" "$OUT/zapi_tur.o" \
    "$OUT/ref.o" "$OUT/tur.o"
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
