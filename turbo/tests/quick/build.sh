#!/bin/sh
# build.sh OUTDIR REF_LIBZ.a TUR_LIBZ.a ZINC [CC] [CFLAGS]: builds diffinf
set -eu
O=$1; REF=$2; TUR=$3; ZINC=$4; CC=${CC:-cc}; CFLAGS=${CFLAGS:--O2 -g}
H=$(cd "$(dirname "$0")/../../harness" && pwd)
D=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$O"
CC=$CC CFLAGS=$CFLAGS sh "$H/mkzobj.sh" ref_ "$O/ref.o" "$REF"
CC=$CC CFLAGS=$CFLAGS sh "$H/mkzobj.sh" tur_ "$O/tur.o" "$TUR"
$CC $CFLAGS -I"$ZINC" -I"$H" -DZAPI_PREFIX=ref_ -DZAPI_TABLE=zapi_ref -c "$H/zapi_impl.c" -o "$O/zr.o"
$CC $CFLAGS -I"$ZINC" -I"$H" -DZAPI_PREFIX=tur_ -DZAPI_TABLE=zapi_tur -c "$H/zapi_impl.c" -o "$O/zt.o"
$CC $CFLAGS -I"$ZINC" -I"$H" "$D/diffinf.c" "$O/zr.o" "$O/zt.o" "$O/ref.o" "$O/tur.o" -o "$O/diffinf"
