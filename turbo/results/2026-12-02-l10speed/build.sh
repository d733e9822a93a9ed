#!/bin/sh
# build.sh TREE NAME [extra cflags]: objs from TREE at -O2 -g (pair.sh objs), zrun-NAME (zrun.c
# beside this script) linked with libdeflate (LIBDEFLATE, default
# /work/comparators/libdeflate-1.25), both in the current folder
set -e
H=$(cd "$(dirname "$0")" && pwd)
T=$1; N=$2; shift 2
rm -rf obj-$N; mkdir -p obj-$N
CC=cc CFLAGS="-O2 -g $*" sh "$H/../../harness/pair.sh" objs $T obj-$N >/dev/null
rm -f libz-$N.a; ar rcs libz-$N.a obj-$N/*.o
LD=${LIBDEFLATE:-/work/comparators/libdeflate-1.25}
cc -O2 -g -DHAVE_LD -I$T -I$LD/include "$H/zrun.c" libz-$N.a $LD/lib/libdeflate.a -pthread -o zrun-$N
