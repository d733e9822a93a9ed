#!/bin/sh
# counted.sh OUTDIR PRISTINE_TREE TURBO_TREE: builds diffinf-counted, where
# both libraries count the symbols their inflate_fast() decodes (a counter
# added to a copy of each inffast.c), so the driver can check that turbo's
# fast loop decodes exactly the symbols zlib 1.3.2's does, call by call.
set -eu
O=$1; P=$2; T=$3; CC=${CC:-cc}; CFLAGS=${CFLAGS:--O2 -g}
H=$(cd "$(dirname "$0")/../../harness" && pwd)
D=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$O"
for x in ref:$P tur:$T; do
    n=${x%%:*}; src=${x#*:}
    rm -rf "$O/$n-tree"; mkdir -p "$O/$n-tree"
    cp "$src"/*.c "$src"/*.h "$O/$n-tree/"
    rm -f "$O/$n-tree/example.c" "$O/$n-tree/minigzip.c"
    # count one per loop iteration of inflate_fast()
    awk '/^void ZLIB_INTERNAL inflate_fast/ { print "unsigned long zt_fast_syms;" }
         { print }
         /^    do \{$/ && inf && !done { print "        zt_fast_syms++;"; done = 1 }
         /^void ZLIB_INTERNAL inflate_fast/ { inf = 1 }' \
        "$src/inffast.c" >"$O/$n-tree/inffast.c"
    grep -q 'zt_fast_syms++' "$O/$n-tree/inffast.c"
    CC=$CC CFLAGS=$CFLAGS sh "$H/mkzobj.sh" ${n}_ "$O/$n.o" "$O/$n-tree"
done
$CC $CFLAGS -I"$P" -I"$H" -DZAPI_PREFIX=ref_ -DZAPI_TABLE=zapi_ref -c "$H/zapi_impl.c" -o "$O/zr.o"
$CC $CFLAGS -I"$P" -I"$H" -DZAPI_PREFIX=tur_ -DZAPI_TABLE=zapi_tur -c "$H/zapi_impl.c" -o "$O/zt.o"
$CC $CFLAGS -DCOUNTED -I"$P" -I"$H" "$D/diffinf.c" "$O/zr.o" "$O/zt.o" "$O/ref.o" "$O/tur.o" -o "$O/diffinf-counted"
