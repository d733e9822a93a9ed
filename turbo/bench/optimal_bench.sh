#!/bin/bash
# optimal_bench.sh [OPTIONS] -- levels 10-12 against zlib 9, libdeflate 12
# and zopfli: compressed size and speed
#
# Per data set and compressor: the raw-deflate bytes summed over the set's
# files, their ratio to libdeflate 12's and to zlib 9's, seconds and MB/s
# (the set's input bytes / the sum of the files' median run times).
# Compressors (turbo/bench/optimal_bench.c has the details): pristine zlib
# 1.3.2 level 9 (zlib-9), zlib-turbo levels 10, 11, 12 (turbo-10 ...),
# zlib-turbo level 12 with deflateSetThreads(strm, N) (turbo-12-tN),
# libdeflate level 12 (libdeflate-12), zopfli with 15 iterations
# (zopfli-i15).  Pristine zlib and zlib-turbo are linked side by side in one
# process (turbo/harness/pair.sh); every output is decompressed with pristine
# zlib's inflate and must give the file back (else "VERIFY FAILURE", exit 2).
# A compressor that cannot run is skipped with a line "SKIP NAME: reason".
#
#   make bench-optimal [LIBDEFLATE=DIR] [ZOPFLI=PATH] [BENCH_ARGS="--quick"]
#   turbo/bench/optimal_bench.sh [OPTIONS]
#
# Options (defaults in brackets):
#   --sets=LIST      comma list of data sets [canterbury,calgary,large,mixed]:
#                    folders of ../shared/corpus, several joined by '+' (one
#                    set), or paths (a folder: its regular files, sorted; or
#                    a file); NAME=SPEC names a set.  Files are used whole.
#                    Without ../shared/corpus the default is zlib-files (the
#                    pristine zlib 1.3.2 tree's 104 pinned files, 2.7 MB),
#                    and the output says so.
#   --files=LIST     comma list of files: one set named "files" (replaces
#                    --sets)
#   --quick          a fixed small set "quick", canterbury's alice29.txt,
#                    cp.html, fields.c, sum, xargs.1 (230 KB; without the
#                    corpus: zlib's deflate.c, inflate.c, zlib.h), 2 runs per
#                    file, unless given
#   --compressors=LIST  names or groups (zlib, turbo, threads, libdeflate,
#                    zopfli, all) [all]
#   --turbo-levels=LIST [10,11,12]
#   --threads=LIST   thread counts for turbo-12-tN [2]
#   --threads-level=L [12]
#   --reps=N         runs per file for zlib, zlib-turbo and libdeflate [5]
#   --max-file-time=S  no more runs of a file once its runs took S s [2]
#   --libdeflate=DIR a libdeflate built by build_libdeflate.sh (DIR/include,
#                    DIR/lib/libdeflate.a); default $LIBDEFLATE; without it
#                    libdeflate-12 is skipped
#   --zopfli=PATH    the zopfli command; default $ZOPFLI, else zopfli on PATH
#                    if there is one; --zopfli=none skips it
#   --zopfli-iterations=K [15]   --zopfli-reps=N [1]
#   --out=PREFIX     write PREFIX.txt (what is printed) and PREFIX.tsv
#   --tsv=FILE       the TSV [build/optimal_bench/last.tsv]
#
# Environment: CC (cc), CFLAGS (pair.sh's bench flags, -O2) for both zlibs
# and the driver; REF and TUR, the zlib trees or libz.a files
# [build/zlib-1.3.2, build/zlib-turbo]; BUILD [build/optimal_bench]; CORPUS
# [../shared/corpus]; LIBDEFLATE, ZOPFLI (as the options).  Exit status: the
# driver's (2 if any run failed or did not decompress to its input).
#
# Time (2-core AMD dev VM, measured): zopfli takes 26 s for canterbury +
# calgary (6.1 MB, 0.2-0.25 MB/s), 14 s for large and 304 s for mixed
# (107 MB, 0.35 MB/s); zlib-9 and libdeflate-12 about 1 minute for all four
# sets together (5 runs per file, fewer on big files); zlib-turbo's levels
# 10-12 about 25 s for canterbury + calgary with --reps=1.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
H=$ROOT/turbo/harness
CORPUS=${CORPUS:-$ROOT/../shared/corpus}
CC=${CC:-cc}
CFLAGS=${CFLAGS:-$(sh "$H/pair.sh" cflags bench)}
BUILD=${BUILD:-$ROOT/build/optimal_bench}
REF=${REF:-$ROOT/build/zlib-1.3.2}
TUR=${TUR:-$ROOT/build/zlib-turbo}
LD_DIR=${LIBDEFLATE:-}
ZOP=${ZOPFLI:-}

usage() { sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" | sed '$d' >&2; exit 1; }

SETS='' FILES='' QUICK=0 OUTP='' TSV=''
DRV=()
ARGV=("$@")
for a; do
    case $a in
        --sets=*) SETS=${a#*=} ;;
        --files=*) FILES=${a#*=} ;;
        --quick) QUICK=1 ;;
        --libdeflate=*) LD_DIR=${a#*=} ;;
        --zopfli=*) ZOP=${a#*=} ;;
        --out=*) OUTP=${a#*=} ;;
        --tsv=*) TSV=${a#*=} ;;
        --compressors=*|--turbo-levels=*|--threads=*|--threads-level=*|\
        --reps=*|--max-file-time=*|--zopfli-iterations=*|--zopfli-reps=*)
            DRV+=("$a") ;;
        -h|--help) usage ;;
        *) echo "optimal_bench: unknown option: $a" >&2; usage ;;
    esac
done

# shellcheck source=turbo/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"       # abspath, bench_sets
for lib in "$REF" "$TUR"; do
    [ -e "$lib" ] || { echo "optimal_bench: no such zlib: $lib (make build first)" >&2; exit 1; }
done
REF=$(abspath "$REF")
TUR=$(abspath "$TUR")
mkdir -p "$BUILD"
BUILD=$(abspath "$BUILD")

# the data: the corpus, or a stand-in from the pristine zlib tree
if [ -d "$CORPUS/canterbury" ] && [ -d "$CORPUS/calgary" ]; then
    CORPUS=$(abspath "$CORPUS")
    DEF_SETS=canterbury,calgary,large,mixed
    C=$CORPUS/canterbury
    QUICK_SET="quick=$C/alice29.txt+$C/cp.html+$C/fields.c+$C/sum+$C/xargs.1"
    DATA_NOTE="data: $CORPUS (MANIFEST.tsv there); files used whole"
else
    Z=$ROOT/build/src/zlib-1.3.2
    PIN=$ROOT/upstream/zlib-1.3.2.sha256
    [ -f "$Z/zlib.h" ] || { echo "optimal_bench: no corpus and no $Z (make build first)" >&2; exit 1; }
    rm -rf "$BUILD/zlib-files"
    mkdir -p "$BUILD/zlib-files"
    cut -c67- "$PIN" | while IFS= read -r f; do
        cp "$Z/$f" "$BUILD/zlib-files/$(echo "$f" | tr / _)"
    done
    DEF_SETS=zlib-files=$BUILD/zlib-files
    QUICK_SET="quick=$Z/deflate.c+$Z/inflate.c+$Z/zlib.h"
    DATA_NOTE="data: NO CORPUS at $CORPUS: stand-in zlib-files = the pristine zlib 1.3.2 tree's pinned files ($Z), one by one"
    echo "optimal_bench: $DATA_NOTE" >&2
fi
if [ -n "$FILES" ]; then
    SETS="files=${FILES//,/+}"
elif [ "$QUICK" = 1 ]; then
    SETS=${SETS:-$QUICK_SET}
fi
if [ "$QUICK" = 1 ]; then
    case " ${DRV[*]:-} " in *" --reps="*) ;; *) DRV+=(--reps=2) ;; esac
fi
SETS=${SETS:-$DEF_SETS}

# expand the sets into driver arguments: --set=NAME FILE...
ARGS=()
bench_sets optimal_bench "$SETS" "$CORPUS"

# libdeflate: compiled in from DIR, or skipped with the reason
LD_FLAGS='' LD_LINK=() LD_NOTE="libdeflate: none"
if [ -z "$LD_DIR" ]; then
    DRV+=("--libdeflate-skip=no --libdeflate=DIR given (build one with turbo/bench/build_libdeflate.sh DIR)")
elif [ ! -f "$LD_DIR/include/libdeflate.h" ] || [ ! -f "$LD_DIR/lib/libdeflate.a" ]; then
    DRV+=("--libdeflate-skip=$LD_DIR has no include/libdeflate.h and lib/libdeflate.a")
else
    LD_DIR=$(abspath "$LD_DIR")
    LD_FLAGS="-DHAVE_LIBDEFLATE -I$LD_DIR/include"
    LD_LINK=(-- "$LD_DIR/lib/libdeflate.a")
    if [ -f "$LD_DIR/SOURCE.txt" ]; then
        LD_NOTE="libdeflate: $LD_DIR: $(paste -s -d ';' "$LD_DIR/SOURCE.txt" | sed 's/;/; /g')"
    else
        LD_NOTE="libdeflate: $LD_DIR (no SOURCE.txt: not made by build_libdeflate.sh)"
    fi
fi

# zopfli: the command, found, or skipped
if [ -z "$ZOP" ]; then
    ZOP=$(command -v zopfli || true)
fi
ZOP_NOTE="zopfli: none"
if [ "$ZOP" = none ]; then
    ZOP=''
elif [ -n "$ZOP" ]; then
    case $ZOP in */*) ;; *) ZOP=$(command -v "$ZOP" || echo "$ZOP") ;; esac
    pkg=$(dpkg -S "$(readlink -f "$ZOP")" 2>/dev/null | head -n 1 | cut -d: -f1 || true)
    ver=
    [ -z "$pkg" ] || ver=$(dpkg -s "$pkg" 2>/dev/null | sed -n 's/^Version: //p')
    ZOP_NOTE="zopfli: $ZOP${pkg:+ (Debian package $pkg $ver)}"
    DRV+=("--zopfli=$ZOP")
fi

# build: both zlibs compiled here with the same CC and CFLAGS, renamed and
# linked side by side by turbo/harness/pair.sh, plus libdeflate.a
echo "optimal_bench: building in $BUILD/obj ($CC $CFLAGS)" >&2
rm -rf "$BUILD/obj"
CC=$CC CFLAGS=$CFLAGS LDFLAGS="${LDFLAGS:-} -pthread" \
    DRIVER_CFLAGS="-std=gnu99 -Wall $LD_FLAGS" \
    sh "$H/pair.sh" build "$BUILD/obj" optimal_bench "$REF" "$TUR" \
    "$HERE/optimal_bench.c" ${LD_LINK[@]+"${LD_LINK[@]}"}

if [ -n "$OUTP" ]; then
    mkdir -p "$(dirname "$OUTP")"
    TSV=${TSV:-$OUTP.tsv}
fi
TSV=${TSV:-$BUILD/last.tsv}
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')
dirty=$(git -C "$ROOT" status --porcelain -- src patches turbo/bench 2>/dev/null | head -n 1)
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
run() {
    "$BUILD/obj/optimal_bench" \
        --note="date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" \
        --note="machine: $(uname -a)" \
        --note="cpu: ${cpu:-unknown} ($(nproc) CPUs online)" \
        --note="compiler: $CC: $($CC --version 2>/dev/null | head -n 1); CFLAGS=$CFLAGS (both zlibs and the driver)" \
        --note="command: turbo/bench/optimal_bench.sh ${ARGV[*]}  (sets $SETS)" \
        --note="code: commit $commit${dirty:+ with uncommitted changes in src/, patches/ or turbo/bench/}; REF=$REF TUR=$TUR" \
        --note="$LD_NOTE" \
        --note="$ZOP_NOTE" \
        --note="$DATA_NOTE" \
        --tsv="$TSV" ${DRV[@]+"${DRV[@]}"} "${ARGS[@]}"
}
rc=0
if [ -n "$OUTP" ]; then
    run | tee "$OUTP.txt"
    rc=${PIPESTATUS[0]}
else
    run || rc=$?
fi
echo "optimal_bench: TSV in $TSV" >&2
exit "$rc"
