#!/bin/bash
# run_speed.sh REF TURBO FILES-OR-DIRS... > speed.txt
#
# Builds zbench with two zlibs, REF (the reference) and TURBO (the library
# under test), and measures both side by side on the given data; the raw
# zbench output (header '#' lines + one TSV line per set/file/op/level/lib)
# goes to stdout, progress to stderr.  Read it with summarize.py.
#
# REF, TURBO: a zlib source tree (its top-level *.c are compiled here with
#   $CC $CFLAGS) or a libz.a (taken as built; zlib.h from its directory).
#   Both are built side by side by turbo/harness/pair.sh.
# FILES-OR-DIRS: a directory stands for its regular files (sorted, not
#   recursive) and names their set (the directory's basename, e.g.
#   canterbury); a file's set is its directory's basename.  NAME=PATH
#   overrides the set name for that file or directory.
#
# Environment:
#   CC (cc), CFLAGS (pair.sh's bench default, -O2): used for both libraries
#          and for zbench
#   BUILD: where to build (default <repo>/build/bench; a fresh subfolder per
#          run, removed afterwards unless KEEP=1)
#   REPS (5), LEVELS (1,3,6,9), ILEVELS (6), OPS (all), MIN_TIME (0.1),
#   CPU (pin zbench to that CPU; default unpinned), ZBENCH_ARGS (more args)
#   LAYOUTS (1): build and run zbench that many times, each with the two
#          libraries' code placed at other offsets modulo 64 bytes (padding
#          objects before each; GNU assembler syntax), one run after the
#          other into the same output, which summarize.py pools (the median
#          is then taken over LAYOUTS x REPS repetitions).  Where a hot loop
#          lands relative to 64-byte boundaries moves a library's speed by
#          a few percent on some cores; with LAYOUTS=4 each library runs at
#          every 16-byte offset modulo 64, paired differently each time.
#   ROTATE (0): with LAYOUTS, also rebuild each source-tree library in every
#          layout with its objects joined in another order (pair.sh
#          REF_ROTATE/TUR_ROTATE, mkzobj.sh's ZOBJ_ROTATE: by 5i places for
#          REF, 7i for TURBO in layout i),
#          which moves functions by kilobytes against each other: placement
#          at that scale moves inflate by up to 5% on the AMD dev machine.
#   SAVE_ONLY: a folder: build each layout's zbench as above, save it there
#          as zbench.1 .. zbench.LAYOUTS and run nothing (turbo/bench/device.sh
#          takes them to a machine without a compiler)
# Exit status: zbench's (2 = some output was not identical/correct).
set -eu

usage() { sed -n '2,25s/^# \{0,1\}//p' "$0" >&2; exit 1; }
[ $# -ge 3 ] || usage

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HARNESS=$ROOT/turbo/harness
CC=${CC:-cc}
CFLAGS=${CFLAGS:-$(sh "$HARNESS/pair.sh" cflags bench)}
BUILD=${BUILD:-$ROOT/build/bench}

# shellcheck source=turbo/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"       # abspath
REF=$(abspath "$1")
TURBO=$(abspath "$2")
shift 2
for lib in "$REF" "$TURBO"; do
    [ -e "$lib" ] || { echo "run_speed: no such zlib: $lib" >&2; exit 1; }
done

# the include directory holding zlib.h for a tree or a libz.a
incdir() { if [ -d "$1" ]; then echo "$1"; else dirname "$1"; fi; }
for lib in "$REF" "$TURBO"; do
    [ -f "$(incdir "$lib")/zlib.h" ] ||
        { echo "run_speed: no zlib.h next to $lib" >&2; exit 1; }
done

# expand the data arguments into zbench arguments: --set=NAME FILE...
ARGS=()
nfiles=0
for a in "$@"; do
    name=
    case $a in
        */*=*) ;;                        # '=' inside a path: a plain path
        ?*=*) name=${a%%=*}; a=${a#*=} ;;
    esac
    if [ -d "$a" ]; then
        d=$(abspath "$a")
        ARGS+=("--set=${name:-$(basename "$d")}")
        while IFS= read -r f; do
            ARGS+=("$f"); nfiles=$((nfiles + 1))
        done < <(find "$d" -mindepth 1 -maxdepth 1 -type f | LC_ALL=C sort)
    elif [ -f "$a" ]; then
        f=$(abspath "$a")
        ARGS+=("--set=${name:-$(basename "$(dirname "$f")")}" "$f")
        nfiles=$((nfiles + 1))
    else
        echo "run_speed: no such file or directory: $a" >&2; exit 1
    fi
done
[ "$nfiles" -gt 0 ] || { echo "run_speed: no data files" >&2; exit 1; }

mkdir -p "$BUILD"
W=$(mktemp -d "$BUILD/speed.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$W"' EXIT
echo "run_speed: building in $W" >&2

# zbench is linked by pair.sh from zbench.o, zapi_ref.o, zapi_tur.o, [pad],
# zref.o, [pad], ztur.o.  With LAYOUTS, a pad of n bytes of code in a section
# aligned to 64 bytes puts the library after it at n modulo 64 (its functions
# are aligned to at most 16 bytes at -O2/-O3): in layout i the ref object
# lands at 16*i bytes past a 64-byte boundary, the tur object at
# 16*((3i+2) mod 4), so each is at all four offsets in 4 layouts.
ZINC=$(incdir "$REF")
DRIVER_CFLAGS="-std=gnu99 -Wall"
export CC CFLAGS ZINC DRIVER_CFLAGS
LAYOUTS=${LAYOUTS:-1}
layout() {
    if [ "$1" -eq 0 ]; then
        sh "$HARNESS/pair.sh" lib ref "$REF" "$W/zref.o"
        sh "$HARNESS/pair.sh" lib tur "$TURBO" "$W/ztur.o"
        sh "$HARNESS/pair.sh" zapi ref "$W/zapi_ref.o"
        sh "$HARNESS/pair.sh" zapi tur "$W/zapi_tur.o"
    elif [ "${ROTATE:-0}" = 1 ]; then
        REF_ROTATE=$((5 * $1)) sh "$HARNESS/pair.sh" lib ref "$REF" "$W/zref.o"
        TUR_ROTATE=$((7 * $1)) sh "$HARNESS/pair.sh" lib tur "$TURBO" "$W/ztur.o"
    fi
    if [ "$LAYOUTS" -gt 1 ]; then
        REF_PAD=$((16 * ($1 % 4))) TUR_PAD=$((16 * ((3 * $1 + 2) % 4))) \
            sh "$HARNESS/pair.sh" link "$W" zbench "$HERE/zbench.c"
    else
        sh "$HARNESS/pair.sh" link "$W" zbench "$HERE/zbench.c"
    fi
}

kind() { if [ -d "$1" ]; then echo "source tree, built with CC/CFLAGS below"
         else echo "static library, taken as built"; fi; }
rc=0
i=0
while [ "$i" -lt "$LAYOUTS" ]; do
    layout "$i"
    if [ -n "${SAVE_ONLY:-}" ]; then
        mkdir -p "$SAVE_ONLY"
        cp "$W/zbench" "$SAVE_ONLY/zbench.$((i + 1))"
        i=$((i + 1))
        continue
    fi
    [ "$LAYOUTS" -gt 1 ] && echo "run_speed: layout $((i + 1)) of $LAYOUTS" >&2
    "$W/zbench" \
        --uname="$(uname -a)" \
        --cc="$CC: $($CC --version 2>/dev/null | head -n 1)" \
        --cflags="$CFLAGS" \
        --ref="$REF" --tur="$TURBO" \
        --note="REF is a $(kind "$REF"); TURBO is a $(kind "$TURBO")" \
        --note="run_speed.sh REPS=${REPS:-5} LEVELS=${LEVELS:-1,3,6,9} ILEVELS=${ILEVELS:-6} OPS=${OPS:-all} MIN_TIME=${MIN_TIME:-0.1} CPU=${CPU:-} LAYOUTS=$LAYOUTS ROTATE=${ROTATE:-0} (this is layout $((i + 1)))" \
        --reps="${REPS:-5}" --levels="${LEVELS:-1,3,6,9}" \
        --ilevels="${ILEVELS:-6}" --ops="${OPS:-all}" \
        --min-time="${MIN_TIME:-0.1}" ${CPU:+--cpu="$CPU"} \
        ${ZBENCH_ARGS:-} "${ARGS[@]}" || rc=$?
    i=$((i + 1))
done
exit $rc
