#!/bin/sh
# sets.sh REPS "name:level ..." : per corpus set (SETS, default all four), sum over files of
# min-of-REPS CPU seconds, compressors interleaved per file (./zrun-NAME, one process per file)
R=$1; LIST=$2
C=${ZT_CORPUS:-/work/shared/corpus}
for set in ${SETS:-canterbury calgary large mixed}; do
  for f in $(find $C/$set -type f | LC_ALL=C sort); do
    for x in $LIST; do b=${x%:*}; L=${x#*:}
      REPS=$R ./zrun-$b $L $f | head -1 | awk -v s=$set -v n=$x '{print s, n, $2, $4}'
    done
  done
done | awk '{k=$1" "$2; b[k]+=$3; t[k]+=$4; if(!($1 in seen)){seen[$1]=1; order[++no]=$1}} END{for(i=1;i<=no;i++){s=order[i]; for(k in b){split(k,a," "); if(a[1]==s) printf "%-11s %-9s %10d bytes %8.3f s\n", s, a[2], b[k], t[k]}}}'
