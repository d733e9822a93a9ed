#!/bin/sh
# ab.sh ROUNDS "drv-a drv-b ..." files... : alternated, best MB/s per driver and file
R=$1; D=$2; shift 2
for f in "$@"; do
  for r in $(seq $R); do for d in $D; do echo "$d $(./$d $f 15 | awk '{print $(NF-1)}')"; done; done | awk -v f=$f '{ if ($2 > b[$1]) b[$1] = $2 } END { for (k in b) printf "%s %s %.1f\n", f, k, b[k] }' | sort
done
