#!/bin/sh
# optimal_perfile_build.sh TREE NAME [extra cflags] -- builds zrun-NAME in the current folder:
# TREE's objects at -O2 -g (pair.sh objs) and optimal_perfile.c (beside this script), linked
# with libdeflate (LIBDEFLATE, default /work/comparators/libdeflate-1.25).  The builds behind
# turbo/results/2026-12-02-{l10speed,l10b,l10c,sweep,minima}/ and optimal-l10-2026-12-02-final.txt.
set -e
H=$(cd "$(dirname "$0")" && pwd)
T=$1; N=$2; shift 2
rm -rf obj-$N; mkdir -p obj-$N
CC=cc CFLAGS="-O2 -g $*" sh "$H/../harness/pair.sh" objs $T obj-$N >/dev/null
rm -f libz-$N.a; ar rcs libz-$N.a obj-$N/*.o
LD=${LIBDEFLATE:-/work/comparators/libdeflate-1.25}
cc -O2 -g -DHAVE_LD -I$T -I$LD/include "$H/optimal_perfile.c" libz-$N.a $LD/lib/libdeflate.a -pthread -o zrun-$N
