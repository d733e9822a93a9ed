#!/bin/sh
# mkzobj.sh PREFIX OUT.o SOURCE
#
# Makes one relocatable object holding a whole zlib with every global symbol
# it defines renamed PREFIX<name> (public API and internals alike), so two
# zlibs can be linked into one program without either seeing the other.
#
# SOURCE is either
#   - a static library (libz.a) as built by zlib's own Makefile: the harness
#     then tests exactly the objects the build made; or
#   - a zlib source tree: its library sources (the *.c files at its top) are
#     compiled here with $CC and $CFLAGS by `pair.sh objs` (e.g. sanitizer
#     builds, or a build of pristine zlib with -DTOO_FAR=32767 for the
#     harness self-test).
#
# ZOBJ_ROTATE=k (trees only): join the objects in their sorted order rotated
# by k places, which moves each function by kilobytes against the others (the
# benchmark's LAYOUTS uses it to average over code placement).
#
# Undefined symbols (libc) keep their names.  ld -r first joins all objects,
# so each symbol has one entry that objcopy renames for definition and uses.
# The join is "$CC $CFLAGS -nostdlib -r" (so -m32 and the like apply) with
# every -fsanitize option left out: a sanitizer runtime is linked once, into
# the program, never into the object.  Other programs are built from this
# object by pair.sh.
set -eu
PREFIX=${1:?usage: mkzobj.sh PREFIX OUT.o LIBZ.a|TREE}
OUT=${2:?usage: mkzobj.sh PREFIX OUT.o LIBZ.a|TREE}
SRC=${3:?usage: mkzobj.sh PREFIX OUT.o LIBZ.a|TREE}
CC=${CC:-cc}
HERE=$(cd "$(dirname "$0")" && pwd)
CFLAGS=${CFLAGS:-$(sh "$HERE/pair.sh" cflags test)}
LD=${LD:-ld}
OBJCOPY=${OBJCOPY:-objcopy}
NM=${NM:-nm}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mkzobj.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

# the flags of the join: CFLAGS without the sanitizers
JFLAGS=
for f in $CFLAGS; do
    case $f in -fsanitize*|-fno-sanitize*) ;; *) JFLAGS="$JFLAGS $f" ;; esac
done

if [ -d "$SRC" ]; then
    CC=$CC CFLAGS=$CFLAGS sh "$HERE/pair.sh" objs "$SRC" "$WORK/o"
    [ -n "$(ls "$WORK/o")" ] || { echo "mkzobj: no sources in $SRC" >&2; exit 1; }
    # the objects in sorted order, rotated by ZOBJ_ROTATE places
    set -- "$WORK"/o/*.o
    k=$(( ${ZOBJ_ROTATE:-0} % $# ))
    while [ "$k" -gt 0 ]; do
        o=$1; shift; set -- "$@" "$o"; k=$((k - 1))
    done
    # shellcheck disable=SC2086
    $CC $JFLAGS -nostdlib -r -o "$WORK/all.o" "$@" 2>/dev/null ||
        $LD -r -o "$WORK/all.o" "$@"
else
    # -r through the compiler driver keeps -m32 and friends consistent
    # shellcheck disable=SC2086
    $CC $JFLAGS -nostdlib -r -o "$WORK/all.o" \
        -Wl,--whole-archive "$SRC" -Wl,--no-whole-archive 2>/dev/null ||
        $LD -r -o "$WORK/all.o" --whole-archive "$SRC" --no-whole-archive
fi
$NM -g --defined-only "$WORK/all.o" | awk -v p="$PREFIX" \
    'NF >= 3 { print $3 " " p $3 }' | sort -u >"$WORK/syms"
$OBJCOPY --redefine-syms="$WORK/syms" "$WORK/all.o" "$OUT"
