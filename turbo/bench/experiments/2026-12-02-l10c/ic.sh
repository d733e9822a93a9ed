#!/bin/sh
# ic.sh NAME LEVEL FILE...: instruction count (callgrind) of zrun-NAME at LEVEL over FILE(s); prints total Ir and top functions
N=$1; L=$2; shift 2
tag=$(basename $1)
nice valgrind --tool=callgrind ${CG_OPTS} --callgrind-out-file=/tmp/l10c-cg-$N-L$L-$tag.out ./zrun-$N $L "$@" > /tmp/l10c-cg-$N-L$L-$tag.log 2>&1
ir=$(callgrind_annotate /tmp/l10c-cg-$N-L$L-$tag.out 2>/dev/null | grep 'PROGRAM TOTALS' | awk '{print $1}')
echo "$N L$L $tag Ir=$ir $(grep -v TOTAL /tmp/l10c-cg-$N-L$L-$tag.log | grep -v '^==' | awk '{print $2, $3}' | tr '\n' ' ')"
