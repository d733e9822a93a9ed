#!/bin/sh
# build.sh TREE NAME [extra cflags]: objs from TREE at -O2 -g, zrun linked with libdeflate
set -e
T=$1; N=$2; shift 2
rm -rf obj-$N; mkdir -p obj-$N
CC=cc CFLAGS="-O2 -g $*" sh /work/wt-l10c/turbo/harness/pair.sh objs $T obj-$N >/dev/null
rm -f libz-$N.a; ar rcs libz-$N.a obj-$N/*.o
LD=/work/comparators/libdeflate-1.25
cc -O2 -g -DHAVE_LD -I$T -I$LD/include zrun.c libz-$N.a $LD/lib/libdeflate.a -pthread -o zrun-$N
