#!/bin/sh
# small_bench.sh time|icount OUTDIR [-- SMALL_BENCH_ARGS...]
#
# Per-stream cost of inflating small zlib streams (100 B, 1 KiB, 4 KiB,
# 16 KiB messages cut from a text, compressed by pristine zlib at levels
# 1, 6, 9), pristine zlib 1.3.2 (build/zlib-1.3.2) against zlib-turbo
# (build/zlib-turbo), both compiled here with the same $CC and $CFLAGS
# (default: pair.sh's bench flags, -O2) and linked side by side by
# turbo/harness/pair.sh into OUTDIR/small_bench (see small_bench.c).
#
#   time     both libraries alternately in one process; medians of the time
#            per stream and ref/tur (> 1: zlib-turbo faster).
#   icount   executed instructions per stream under valgrind's callgrind
#            (only counted_region(): PASSES (default 20) passes over the 64
#            messages after one untimed pass), each library, size, level,
#            way (init, reset) and output space (exact, big); ICOUNT_KEEP=1
#            keeps each callgrind.out in OUTDIR for callgrind_annotate.
#            Also the mispredicted branches per stream of callgrind's
#            branch simulator.  memset() is kept from "rep stosb" (which
#            callgrind counts per byte) with a glibc tunable.  Steady from
#            run to run, unlike time on a shared machine.
#
# The text: $SMALL_BENCH_FILE, else ../shared/corpus/large/bible.txt, else
# canterbury/lcet10.txt, else the pristine tree's ChangeLog.  A header
# names the machine, its load, the compiler and the command.  Exits
# non-zero when a library's output differs from the message.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
MODE=${1:-}
OUT=${2:-}
case $MODE in time|icount) ;; *) sed -n '2,26s/^# \{0,1\}//p' "$0" >&2; exit 2 ;; esac
[ -n "$OUT" ] || { echo "small_bench.sh: no OUTDIR" >&2; exit 2; }
shift 2
[ "${1:-}" != "--" ] || shift
H=$TOP/turbo/harness
CFLAGS=${CFLAGS:-$(sh "$H/pair.sh" cflags bench)}
CC=${CC:-cc}
REF=${REF:-$TOP/build/zlib-1.3.2}
TUR=${TUR:-$TOP/build/zlib-turbo}
export CC CFLAGS
DRIVER_CFLAGS=-Wall sh "$H/pair.sh" build "$OUT" small_bench \
    "$REF" "$TUR" "$TOP/turbo/bench/small_bench.c"
C=$TOP/../shared/corpus
FILE=
for f in "${SMALL_BENCH_FILE:-}" "$C/large/bible.txt" "$C/canterbury/lcet10.txt" \
         "$REF/ChangeLog"; do
    if [ -n "$f" ] && [ -f "$f" ]; then FILE=$f; break; fi
done
echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "# machine: $(uname -a)"
echo "# cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1), $(nproc 2>/dev/null) cpus, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "# compiler: $CC: $($CC --version 2>/dev/null | head -n 1); CFLAGS=$CFLAGS (both libraries and the bench)"
echo "# ref: $REF  tur: $TUR (HEAD $(git -C "$TUR" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "# command: turbo/bench/small_bench.sh $MODE $OUT -- $*  (file $FILE)"
if [ "$MODE" = time ]; then
    "$OUT/small_bench" "$@" "$FILE"
    echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    exit 0
fi
P=${PASSES:-20}
echo "# columns: size level way out ref_Ir/stream tur_Ir/stream ref/tur ref_mispredicts/stream tur_mispredicts/stream ($P passes x 64 messages; callgrind --branch-sim=yes, its simple predictor model)"
for size in ${SIZES:-100 1024 4096 16384}; do
    for level in ${LEVELS:-1 6 9}; do
        for way in ${WAYS:-init reset}; do
            for o in ${OUTS:-exact big}; do
                line="$size $level $way $o"
                for lib in ref tur; do
                    cg=/dev/null
                    [ -z "${ICOUNT_KEEP:-}" ] || cg=$OUT/callgrind.$lib.$size.$level.$way.$o
                    err=$(GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=0x7fffffff valgrind --tool=callgrind --branch-sim=yes --toggle-collect=counted_region \
                        --callgrind-out-file="$cg" "$OUT/small_bench" --count $lib \
                        --passes "$P" --sizes "$size" --levels "$level" --ways "$way" \
                        --outs "$o" "$FILE" 2>&1 >/dev/null) || {
                        echo "small_bench.sh: failed ($lib $line): $err" >&2; exit 1; }
                    ir=$(echo "$err" | awk '/Collected/ { print $4 }')
                    mis=$(echo "$err" | awk '/Collected/ { print $6 + $8 }')
                    [ -n "$ir" ] || { echo "small_bench.sh: callgrind failed ($lib $line)" >&2; exit 1; }
                    line="$line $((ir / (P * 64))) $((mis / (P * 64)))"
                done
                echo "$line" | awk '{ printf "%6d %d %-5s %-5s %8d %8d %6.3f %6d %6d\n", $1, $2, $3, $4, $5, $7, $5 / $7, $6, $8 }'
            done
        done
    done
done
