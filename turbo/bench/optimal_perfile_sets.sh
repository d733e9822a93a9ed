#!/bin/sh
# optimal_perfile_sets.sh REPS "name:level ..." -- per corpus set (SETS, default all four), bytes
# and the sum over files of min-of-REPS CPU seconds, the zrun-NAME builds (optimal_perfile_build.sh,
# in the current folder) interleaved per file, one process per file.  Behind
# turbo/results/2026-12-02-{l10speed,l10b}/ and turbo/results/optimal-l10-2026-12-02{,-final}.txt.
R=$1; LIST=$2
C=${ZT_CORPUS:-/work/shared/corpus}
for set in ${SETS:-canterbury calgary large mixed}; do
  for f in $(find $C/$set -type f | LC_ALL=C sort); do
    for x in $LIST; do b=${x%:*}; L=${x#*:}
      REPS=$R ./zrun-$b $L $f | head -1 | awk -v s=$set -v n=$x '{print s, n, $2, $4}'
    done
  done
done | awk '{k=$1" "$2; b[k]+=$3; t[k]+=$4; if(!($1 in seen)){seen[$1]=1; order[++no]=$1}} END{for(i=1;i<=no;i++){s=order[i]; for(k in b){split(k,a," "); if(a[1]==s) printf "%-11s %-9s %10d bytes %8.3f s\n", s, a[2], b[k], t[k]}}}'
