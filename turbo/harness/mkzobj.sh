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
#     compiled here with $CC and $CFLAGS (e.g. sanitizer builds, or a build of
#     pristine zlib with -DTOO_FAR=32767 for the harness self-test).
#
# ZOBJ_ROTATE=k (trees only): join the objects in their sorted order rotated
# by k places, which moves each function by kilobytes against the others (the
# benchmark's LAYOUTS uses it to average over code placement).
#
# Undefined symbols (libc) keep their names.  ld -r first joins all objects,
# so each symbol has one entry that objcopy renames for definition and uses.
set -eu
PREFIX=${1:?usage: mkzobj.sh PREFIX OUT.o LIBZ.a|TREE}
OUT=${2:?usage: mkzobj.sh PREFIX OUT.o LIBZ.a|TREE}
SRC=${3:?usage: mkzobj.sh PREFIX OUT.o LIBZ.a|TREE}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
LD=${LD:-ld}
OBJCOPY=${OBJCOPY:-objcopy}
NM=${NM:-nm}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mkzobj.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

if [ -d "$SRC" ]; then
    n=0
    for c in "$SRC"/*.c; do
        b=$(basename "$c" .c)
        # shellcheck disable=SC2086
        $CC $CFLAGS -D_LARGEFILE64_SOURCE=1 -DHAVE_UNISTD_H -DHAVE_STDARG_H \
            -I"$SRC" -c "$c" -o "$WORK/$b.o"
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] || { echo "mkzobj: no sources in $SRC" >&2; exit 1; }
    # the objects in sorted order, rotated by ZOBJ_ROTATE places
    set -- "$WORK"/*.o
    k=$(( ${ZOBJ_ROTATE:-0} % $# ))
    while [ "$k" -gt 0 ]; do
        o=$1; shift; set -- "$@" "$o"; k=$((k - 1))
    done
    # shellcheck disable=SC2086
    $CC $CFLAGS -nostdlib -r -o "$WORK/all.o" "$@" 2>/dev/null ||
        $LD -r -o "$WORK/all.o" "$@"
else
    # -r through the compiler driver keeps -m32 and friends consistent
    # shellcheck disable=SC2086
    $CC $CFLAGS -nostdlib -r -o "$WORK/all.o" \
        -Wl,--whole-archive "$SRC" -Wl,--no-whole-archive 2>/dev/null ||
        $LD -r -o "$WORK/all.o" --whole-archive "$SRC" --no-whole-archive
fi
$NM -g --defined-only "$WORK/all.o" | awk -v p="$PREFIX" \
    'NF >= 3 { print $3 " " p $3 }' | sort -u >"$WORK/syms"
$OBJCOPY --redefine-syms="$WORK/syms" "$WORK/all.o" "$OUT"
