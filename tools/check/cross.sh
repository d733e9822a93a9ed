#!/bin/sh
# cross.sh TARGET -- zlib-turbo built for another target against pristine
# zlib, by turbo/tests/cross/run_cross.sh (its top comment says how).
# TARGET is one of x86-64 (the host, no emulator), m32 (32-bit x86, under
# qemu-i386 where the kernel cannot run it), arm64, armel (ARMv5, no
# unaligned access), ppc64le, s390x (big-endian), riscv64 (each
# cross-compiled with Debian's gcc-TRIPLE, statically linked, run under
# qemu-user), win64 (64-bit Windows and its threads, under wine), or quick.
# On each target: levels 0-9 on a few files against pristine zlib on the
# host; levels 10-12 on the same files in several ways (zoptimal.c) against
# zlib-turbo's bytes on the host (not zlib's, but the same everywhere);
# threaded deflate against pristine zlib built for the same target, call by
# call (zthreads.c: levels 4-9, threads 2-4, win64 2-8, zlib-turbo with
# 4 KiB segments, so that the files cross many); 2000 damaged streams
# through inflate() and inflateBack() against pristine zlib for the same
# target, call by call (zdamaged.c); Adler-32 and CRC-32 against pristine
# for the same target (zsums.c; on 32-bit targets again with the 8-byte
# Adler-32 forced on); zlib's own example and minigzip.  make check-cross
# runs the seven Linux targets, one step each; make check-windows runs
# win64.  Not in make check but for:
#   quick    arm64 and s390x, two at a time, on one file: levels 0-9,
#            levels 10-12 (zoptimal.c), 200 damaged streams of up to 16 KiB,
#            the checksums on lengths 0-300, example and minigzip (about
#            30 s on 2 idle cores).
# Skipped (77) where the target's compiler or emulator is missing (quick:
# both), or wine cannot run a program here; what to install is in the
# README.
set -eu
. tools/check/lib.sh
[ $# -eq 1 ] || { echo "usage: cross.sh x86-64|m32|arm64|armel|ppc64le|s390x|riscv64|win64|quick" >&2; exit 2; }
C=$TOP/../shared/corpus
files=
if [ "$1" = quick ]; then
    set -- "arm64 s390x"
    export CHECKS="levels optimal inflate sums ztest" ZDAMAGED="-n 200 -m 16384"
    export ZSUMS=-q CROSS_JOBS=2
    [ ! -f "$C/canterbury/alice29.txt" ] || files=$C/canterbury/alice29.txt
    [ -n "$files" ] || files=$PRISTINE/deflate.c
else
    for f in canterbury/alice29.txt canterbury/kennedy.xls calgary/obj2 \
             calgary/geo; do
        [ ! -f "$C/$f" ] || files="$files $C/$f"
    done
    # without ../shared: zlib's own sources
    [ -n "$files" ] || files="$PRISTINE/deflate.c $PRISTINE/zlib.h $PRISTINE/ChangeLog"
fi
# shellcheck disable=SC2086
CROSS_BUILD=$LOG/cross TARGETS=$1 sh turbo/tests/cross/run_cross.sh \
    "$REF" "$TUR" $files
