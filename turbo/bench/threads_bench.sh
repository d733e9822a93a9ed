#!/bin/bash
# threads_bench.sh [OPTIONS] -- threaded deflate against pristine zlib
#
# Whole-file deflate() speed (MB/s of input) of pristine zlib 1.3.2 (one
# thread) and of zlib-turbo with deflateSetThreads() at each thread count,
# side by side in one process (turbo/bench/threads_bench.c, which also checks
# every run's output against pristine zlib's and exits 2 on any difference).
# Per data set, level and output mode: medians over the rounds of the set's
# total time, the ratio to pristine and the ratio to zlib-turbo at 1 thread.
#
#   make bench-threads [BENCH_ARGS="--quick"]      or
#   turbo/bench/threads_bench.sh [OPTIONS]
#
# Options (defaults in brackets):
#   --sets=LIST      comma list of data sets [mixed,canterbury+calgary]; each
#                    is a folder of ../shared/corpus (canterbury, calgary,
#                    large, mixed), several joined by '+' (one set), or a
#                    path (a folder: its regular files, sorted; or a file);
#                    NAME=SPEC names it.  Each set is compressed file by file
#                    and summed.  Without ../shared/corpus the defaults are
#                    zlib-cat (the pristine zlib 1.3.2 tree's 104 pinned files
#                    concatenated, 2.7 MB) and zlib-files (the same files one
#                    by one), and the output says so.
#   --levels=LIST    [4,6,9]
#   --threads=LIST   zlib-turbo's thread counts [1,2,4,8,16]; counts above
#                    nproc are run all the same (nproc is in the header)
#   --modes=LIST     whole (one deflate(Z_FINISH) into one big buffer), 16k
#                    (avail_out = 16384 per call, as gzwrite()) [whole,16k]
#   --rounds=N       [5]; implementations alternate inside each round
#   --budget=SECONDS begin no round that would end past SECONDS of
#                    measurement (judged by the mean round so far; at least
#                    one round; the output says how many were done) [none]
#   --quick          a smoke test: 1 round, level 6, set canterbury+calgary
#                    (zlib-cat without the corpus), unless given
#   --out=PREFIX     write PREFIX.txt (what is printed) and PREFIX.tsv
#   --tsv=FILE       the TSV [build/threads_bench/last.tsv]
#
# Environment: CC (cc), CFLAGS (pair.sh's bench flags, -O2) for both
# libraries and the driver; REF and TUR, the zlib trees or libz.a files
# [build/zlib-1.3.2, build/zlib-turbo]; BUILD [build/threads_bench];
# CORPUS [../shared/corpus]; REF_CFLAGS, TUR_CFLAGS (one side only, see
# turbo/harness/pair.sh).  Exit status: the driver's, 2 if any output
# differed from pristine zlib's.
#
# Time: a full run (the defaults) takes about 11 minutes on the 2-core AMD
# dev VM when it is quiet (estimated from CPU times: mixed is nine tenths of
# it, level 9 two thirds), 14 if the threads gained nothing, and more when
# other work shares the cores; --quick about 10 seconds, plus 15 seconds of
# build.  Progress goes to stderr, with the time to go after the first
# round; --budget caps the whole (e.g. --budget=840).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
H=$ROOT/turbo/harness
CORPUS=${CORPUS:-$ROOT/../shared/corpus}
CC=${CC:-cc}
CFLAGS=${CFLAGS:-$(sh "$H/pair.sh" cflags bench)}
BUILD=${BUILD:-$ROOT/build/threads_bench}
REF=${REF:-$ROOT/build/zlib-1.3.2}
TUR=${TUR:-$ROOT/build/zlib-turbo}

usage() { sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" | sed '$d' >&2; exit 1; }

SETS='' LEVELS='' THREADS='' MODES='' ROUNDS='' BUDGET=0 QUICK=0 OUTP='' TSV=''
ARGV=("$@")
for a; do
    case $a in
        --sets=*) SETS=${a#*=} ;;
        --levels=*) LEVELS=${a#*=} ;;
        --threads=*) THREADS=${a#*=} ;;
        --modes=*) MODES=${a#*=} ;;
        --rounds=*) ROUNDS=${a#*=} ;;
        --budget=*) BUDGET=${a#*=} ;;
        --quick) QUICK=1 ;;
        --out=*) OUTP=${a#*=} ;;
        --tsv=*) TSV=${a#*=} ;;
        -h|--help) usage ;;
        *) echo "threads_bench: unknown option: $a" >&2; usage ;;
    esac
done

# shellcheck source=turbo/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"       # abspath, bench_sets
for lib in "$REF" "$TUR"; do
    [ -e "$lib" ] || { echo "threads_bench: no such zlib: $lib (make build first)" >&2; exit 1; }
done
REF=$(abspath "$REF")
TUR=$(abspath "$TUR")
mkdir -p "$BUILD"
BUILD=$(abspath "$BUILD")

# the data: the corpus, or a stand-in made from the pristine zlib tree
DATA_NOTE=
if [ -d "$CORPUS/mixed" ] && [ -d "$CORPUS/canterbury" ] &&
   [ -d "$CORPUS/calgary" ]; then
    CORPUS=$(abspath "$CORPUS")
    DEF_SETS=mixed,canterbury+calgary
    QUICK_SETS=canterbury+calgary
    DATA_NOTE="data: $CORPUS"
else
    Z=$ROOT/build/src/zlib-1.3.2
    PIN=$ROOT/upstream/zlib-1.3.2.sha256
    [ -f "$Z/zlib.h" ] || { echo "threads_bench: no corpus and no $Z (make build first)" >&2; exit 1; }
    mkdir -p "$BUILD/zlib-files"
    : >"$BUILD/zlib-cat.new"
    # the pinned files, in the pin's order, each once under its path with
    # '/' as '_' and all of them concatenated
    cut -c67- "$PIN" | while IFS= read -r f; do
        cp "$Z/$f" "$BUILD/zlib-files/$(echo "$f" | tr / _)"
        cat "$Z/$f" >>"$BUILD/zlib-cat.new"
    done
    mkdir -p "$BUILD/zlib-cat"
    mv "$BUILD/zlib-cat.new" "$BUILD/zlib-cat/zlib-1.3.2.cat"
    DEF_SETS=zlib-cat=$BUILD/zlib-cat,zlib-files=$BUILD/zlib-files
    QUICK_SETS=zlib-cat=$BUILD/zlib-cat
    DATA_NOTE="data: NO CORPUS at $CORPUS: stand-ins made from the pristine zlib 1.3.2 tree ($Z): zlib-cat = its pinned files concatenated, zlib-files = the same files one by one"
    echo "threads_bench: $DATA_NOTE" >&2
fi
if [ "$QUICK" = 1 ]; then
    SETS=${SETS:-$QUICK_SETS}
    LEVELS=${LEVELS:-6}
    ROUNDS=${ROUNDS:-1}
fi
SETS=${SETS:-$DEF_SETS}
LEVELS=${LEVELS:-4,6,9}
THREADS=${THREADS:-1,2,4,8,16}
MODES=${MODES:-whole,16k}
ROUNDS=${ROUNDS:-5}

# expand the sets into driver arguments: --set=NAME FILE...
ARGS=()
bench_sets threads_bench "$SETS" "$CORPUS"

# build: both libraries compiled here with the same CC and CFLAGS, renamed
# and linked side by side by turbo/harness/pair.sh
echo "threads_bench: building in $BUILD/obj ($CC $CFLAGS)" >&2
rm -rf "$BUILD/obj"
CC=$CC CFLAGS=$CFLAGS LDFLAGS="${LDFLAGS:-} -pthread" \
    DRIVER_CFLAGS="-std=gnu99 -Wall" \
    sh "$H/pair.sh" build "$BUILD/obj" threads_bench "$REF" "$TUR" \
    "$HERE/threads_bench.c"

if [ -n "$OUTP" ]; then
    mkdir -p "$(dirname "$OUTP")"
    TSV=${TSV:-$OUTP.tsv}
fi
TSV=${TSV:-$BUILD/last.tsv}
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')
dirty=$(git -C "$ROOT" status --porcelain -- src patches turbo/bench 2>/dev/null | head -n 1)
run() {
    "$BUILD/obj/threads_bench" \
        --note="date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" \
        --note="compiler: $CC: $($CC --version 2>/dev/null | head -n 1); CFLAGS=$CFLAGS (both libraries and the driver; LDFLAGS -pthread)" \
        --note="command: turbo/bench/threads_bench.sh ${ARGV[*]}  (sets $SETS, levels $LEVELS, threads $THREADS, modes $MODES, rounds $ROUNDS, budget $BUDGET s)" \
        --note="code: commit $commit${dirty:+ with uncommitted changes in src/, patches/ or turbo/bench/}; REF=$REF TUR=$TUR" \
        --note="$DATA_NOTE" \
        --levels="$LEVELS" --threads="$THREADS" --modes="$MODES" \
        --rounds="$ROUNDS" --budget="$BUDGET" --tsv="$TSV" "${ARGS[@]}"
}
rc=0
if [ -n "$OUTP" ]; then
    run | tee "$OUTP.txt"
    rc=${PIPESTATUS[0]}
else
    run || rc=$?
fi
echo "threads_bench: TSV in $TSV" >&2
exit "$rc"
