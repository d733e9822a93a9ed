#!/bin/sh
# pair.sh COMMAND ARGS... -- builds every program that links two zlibs
#
# The differential tests, the benchmarks, the fuzzers and the quick driver
# each run two zlibs in one process: REF (the reference, normally pristine
# zlib 1.3.2) and TUR (the library under test), each a zlib source tree or a
# libz.a.  This script is the one way they are built: mkzobj.sh renames each
# library into ref_* or tur_*, zapi_impl.c is compiled once per prefix (the
# zapi tables of zapi.h), and the driver is linked with both.
#
#   pair.sh build OUTDIR PROG REF TUR DRIVER... [-- LINK-ARGS...]
#       all of the below: lib and zapi for both sides into OUTDIR, then link
#       OUTDIR/PROG.  ZINC defaults to REF's folder (a tree, or the folder of
#       a libz.a).
#   pair.sh lib ref|tur SOURCE OUT.o
#       one library renamed (mkzobj.sh): a tree is compiled with $CC $CFLAGS
#       plus $REF_CFLAGS or $TUR_CFLAGS, and its objects are joined in sorted
#       order rotated by $REF_ROTATE or $TUR_ROTATE places (ZOBJ_ROTATE); a
#       libz.a is taken as built.
#   pair.sh zapi ref|tur OUT.o
#       zapi_impl.c for that prefix, with $CC $CFLAGS against $ZINC's zlib.h.
#   pair.sh link OUTDIR PROG DRIVER... [-- LINK-ARGS...]
#       compiles each DRIVER into OUTDIR (.c with $CC $CFLAGS, .cpp or .cc
#       with $CXX $CXXFLAGS, both plus $DRIVER_CFLAGS -I<this folder>
#       -I$ZINC; a .o is taken as it is) and links OUTDIR/PROG from, in this
#       order: the drivers, OUTDIR/zapi_ref.o, OUTDIR/zapi_tur.o, [a REF
#       pad], OUTDIR/zref.o, [a TUR pad], OUTDIR/ztur.o, then LINK-ARGS; with
#       $CXX $CXXFLAGS $LDFLAGS when a driver is C++ or LINK_CXX=1, else with
#       $CC $CFLAGS $LDFLAGS.
#   pair.sh objs TREE OUTDIR [NAME...]
#       compiles the library sources of the zlib tree TREE (each *.c at its
#       top but example.c and minigzip.c, or NAME.c for each NAME) into
#       OUTDIR/NAME.o, with $CC $CFLAGS -D_LARGEFILE64_SOURCE=1
#       -DHAVE_UNISTD_H -DHAVE_STDARG_H -ITREE.  Everything that compiles a
#       zlib tree for the harness does it this way (mkzobj.sh, zsum.sh,
#       inflate_icount.sh, cross/run_cross.sh).
#   pair.sh cflags PURPOSE [SANITIZERS]
#       prints the default CFLAGS of PURPOSE (below); for san and fuzz,
#       SANITIZERS replaces the -fsanitize= list (address,undefined).
#
# Default CFLAGS, one per purpose.  They are defined here only; CFLAGS in
# the environment (or a script's CFLAGS argument) overrides them.
#   test   -O2     the differential tests and checks: turbo/tests/Makefile
#                  (zt_tests, make check), run_compress.sh, quick/build.sh,
#                  quick/counted.sh, zsum.sh, cross/run_cross.sh
#   bench  -O2     speed and instruction counts: run_speed.sh (and demo.sh,
#                  make bench), zsum_bench.sh, dict_bench.sh,
#                  inflate_icount.sh
#   san    -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
#                  the tests under sanitizers: run_stress.sh
#   fuzz   the san flags plus -fsanitize=fuzzer-no-link (clang):
#                  turbo/tests/fuzz/run.sh
#
# Environment: CC (cc), CXX (c++), CFLAGS (the test default), CXXFLAGS
# (CFLAGS), LDFLAGS, REF_CFLAGS and TUR_CFLAGS (that side's library only),
# ZINC (the folder of zlib.h and zconf.h; needed by zapi, link),
# DRIVER_CFLAGS (the drivers only), LINK_CXX, REF_ROTATE and TUR_ROTATE,
# REF_PAD and TUR_PAD (link: a pad object of that many bytes of code, 0-63,
# in a section aligned to 64 bytes right before that side's object, which
# puts the library's code at that offset modulo 64; GNU assembler syntax),
# and LD, NM, OBJCOPY for mkzobj.sh (cross toolchains).
#
# Sanitizers and libFuzzer: with -fsanitize=... in CFLAGS the libraries are
# compiled with it, joined by mkzobj.sh without it (so no sanitizer runtime
# enters a library's object), and the runtimes are linked once, into PROG
# (CFLAGS is on the link line).  LDFLAGS=-fsanitize=fuzzer links libFuzzer.
# Exit status: non-zero on the first error (set -e); 2 on bad usage.
set -eu
H=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
CXX=${CXX:-c++}

usage() { sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }

# cflags PURPOSE [SANITIZERS]: the default CFLAGS of PURPOSE (fuzz with
# SANITIZERS "none": libFuzzer's coverage alone, -O2, for differences only)
cflags() {
    s=${2:-address,undefined}
    case $1 in
        test) echo "-O2" ;;
        bench) echo "-O2" ;;
        san) echo "-O1 -g -fsanitize=$s -fno-sanitize-recover=all" ;;
        fuzz) if [ "$s" = none ]; then
                  echo "-O2 -g -fsanitize=fuzzer-no-link"
              else
                  echo "-O1 -g -fsanitize=$s -fno-sanitize-recover=all -fsanitize=fuzzer-no-link"
              fi ;;
        *) echo "pair.sh: no such purpose: $1 (test, bench, san, fuzz)" >&2
           exit 2 ;;
    esac
}
CFLAGS=${CFLAGS:-$(cflags test)}
CXXFLAGS=${CXXFLAGS:-$CFLAGS}
LDFLAGS=${LDFLAGS:-}
DRIVER_CFLAGS=${DRIVER_CFLAGS:-}

# side ref|tur: checks the side's name
side() {
    case $1 in ref|tur) ;; *) echo "pair.sh: side must be ref or tur: $1" >&2
                             exit 2 ;; esac
}

# objs TREE OUTDIR [NAME...]: compile a tree's library sources
objs() {
    tree=$1 out=$2
    shift 2
    [ -f "$tree/zlib.h" ] || { echo "pair.sh: not a zlib tree: $tree" >&2
                              exit 1; }
    mkdir -p "$out"
    if [ $# -eq 0 ]; then
        for c in "$tree"/*.c; do
            case ${c##*/} in example.c|minigzip.c) continue ;; esac
            set -- "$@" "$(basename "$c" .c)"
        done
    fi
    for n in "$@"; do
        # shellcheck disable=SC2086
        $CC $CFLAGS -D_LARGEFILE64_SOURCE=1 -DHAVE_UNISTD_H -DHAVE_STDARG_H \
            -I"$tree" -c "$tree/$n.c" -o "$out/$n.o"
    done
}

# lib SIDE SOURCE OUT.o: one library, renamed SIDE_*
lib() {
    side "$1"
    case $1 in
        ref) f=${REF_CFLAGS:-} r=${REF_ROTATE:-0} ;;
        tur) f=${TUR_CFLAGS:-} r=${TUR_ROTATE:-0} ;;
    esac
    CC=$CC CFLAGS="$CFLAGS${f:+ $f}" ZOBJ_ROTATE=$r \
        sh "$H/mkzobj.sh" "$1_" "$3" "$2"
}

# zapi SIDE OUT.o: the zapi table of SIDE
zapi() {
    side "$1"
    : "${ZINC:?pair.sh: set ZINC to the folder of zlib.h}"
    # shellcheck disable=SC2086
    $CC $CFLAGS -I"$H" -I"$ZINC" -DZAPI_PREFIX="$1_" -DZAPI_TABLE="zapi_$1" \
        -c "$H/zapi_impl.c" -o "$2"
}

# pad OUTDIR SIDE BYTES: OUTDIR/pad_SIDE.o, BYTES of code after a 64-byte
# boundary
pad() {
    { printf '\t.section .note.GNU-stack,"",@progbits\n'
      printf '\t.text\n\t.p2align 6\npair_pad_%s:\n' "$2"
      [ "$3" -eq 0 ] || printf '\t.skip %s\n' "$3"
    } | $CC -c -x assembler -o "$1/pad_$2.o" -
}

# link OUTDIR PROG DRIVER... [-- LINK-ARGS...]
link() {
    out=$1 prog=$2
    shift 2
    : "${ZINC:?pair.sh: set ZINC to the folder of zlib.h}"
    cxx=${LINK_CXX:-0}
    [ -z "${REF_PAD:-}" ] || pad "$out" ref "$REF_PAD"
    [ -z "${TUR_PAD:-}" ] || pad "$out" tur "$TUR_PAD"
    # "$@" is the only list POSIX sh has: each argument is taken from the
    # front and put back at the end (a driver as its object), and the pair's
    # objects go in where "--" stands (one is added when none was given)
    d=0
    for a; do [ "$a" != -- ] || d=1; done
    [ "$d" -eq 1 ] || set -- "$@" --
    d=1
    n=$#
    while [ "$n" -gt 0 ]; do
        a=$1
        shift
        n=$((n - 1))
        if [ "$d" -eq 0 ]; then
            set -- "$@" "$a"
            continue
        fi
        case $a in
            --) d=0
                set -- "$@" "$out/zapi_ref.o" "$out/zapi_tur.o"
                [ -z "${REF_PAD:-}" ] || set -- "$@" "$out/pad_ref.o"
                set -- "$@" "$out/zref.o"
                [ -z "${TUR_PAD:-}" ] || set -- "$@" "$out/pad_tur.o"
                set -- "$@" "$out/ztur.o"
                continue ;;
            *.c) o=$out/$(basename "$a" .c).o
                 # shellcheck disable=SC2086
                 $CC $CFLAGS $DRIVER_CFLAGS -I"$H" -I"$ZINC" -c "$a" -o "$o" ;;
            *.cpp|*.cc)
                 o=$out/$(basename "${a%.*}").o
                 # shellcheck disable=SC2086
                 $CXX $CXXFLAGS $DRIVER_CFLAGS -I"$H" -I"$ZINC" -c "$a" -o "$o"
                 cxx=1 ;;
            *) o=$a ;;
        esac
        set -- "$@" "$o"
    done
    # shellcheck disable=SC2086
    if [ "$cxx" = 1 ]; then
        $CXX $CXXFLAGS $LDFLAGS -o "$out/$prog" "$@"
    else
        $CC $CFLAGS $LDFLAGS -o "$out/$prog" "$@"
    fi
}

# build OUTDIR PROG REF TUR DRIVER... [-- LINK-ARGS...]
build() {
    out=$1 prog=$2 ref=$3 tur=$4
    shift 4
    for s in "$ref" "$tur"; do
        [ -e "$s" ] || { echo "pair.sh: no such zlib: $s" >&2; exit 1; }
    done
    if [ -z "${ZINC:-}" ]; then
        if [ -d "$ref" ]; then ZINC=$ref; else ZINC=$(dirname "$ref"); fi
    fi
    mkdir -p "$out"
    lib ref "$ref" "$out/zref.o"
    lib tur "$tur" "$out/ztur.o"
    zapi ref "$out/zapi_ref.o"
    zapi tur "$out/zapi_tur.o"
    link "$out" "$prog" "$@"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
    cflags) [ $# -ge 1 ] || usage; cflags "$@" ;;
    objs) [ $# -ge 2 ] || usage; objs "$@" ;;
    lib) [ $# -eq 3 ] || usage; lib "$@" ;;
    zapi) [ $# -eq 2 ] || usage; zapi "$@" ;;
    link) [ $# -ge 3 ] || usage; link "$@" ;;
    build) [ $# -ge 5 ] || usage; build "$@" ;;
    *) usage ;;
esac
