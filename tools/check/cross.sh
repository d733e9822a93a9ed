#!/bin/sh
# cross.sh TARGET -- zlib-turbo built for another target against pristine
# zlib, by turbo/tests/cross/run_cross.sh: TARGET is m32 (32-bit x86, under
# qemu-i386 where the kernel cannot run it), s390x (big-endian, under
# qemu-s390x) or win64 (64-bit Windows and its threads, under wine).  Levels
# 0-9 on a few files, and threaded deflate compared with pristine zlib call
# by call (zthreads.c: levels 4-9, threads 2-4, win64 2-8, zlib-turbo with
# 4 KiB segments, so that the files cross many); levels 10-12 on the same
# files in several ways (zoptimal.c), compared with zlib-turbo's bytes on
# the host (they are not zlib's, but the same everywhere).  Run by make check-cross
# (m32, s390x) and make check-windows (win64), not by make check.  Skipped
# (77) where the target's compiler or emulator is missing, or wine cannot
# run a program here; what to install is in the README.
set -eu
. tools/check/lib.sh
[ $# -eq 1 ] || { echo "usage: cross.sh m32|s390x|win64" >&2; exit 2; }
C=$TOP/../shared/corpus
files=
for f in canterbury/alice29.txt canterbury/kennedy.xls calgary/obj2 \
         calgary/geo; do
    [ ! -f "$C/$f" ] || files="$files $C/$f"
done
# without ../shared: zlib's own sources
[ -n "$files" ] || files="$PRISTINE/deflate.c $PRISTINE/zlib.h $PRISTINE/ChangeLog"
# shellcheck disable=SC2086
CROSS_BUILD=$LOG/cross TARGETS=$1 sh turbo/tests/cross/run_cross.sh \
    "$REF" "$TUR" $files
