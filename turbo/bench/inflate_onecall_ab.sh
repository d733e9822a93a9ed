#!/bin/sh
# inflate_onecall_ab.sh ROUNDS "drv-a drv-b ..." FILE... -- the inflate_onecall.c builds in the
# current folder alternated, ROUNDS times, 15 runs each; prints the best MB/s per build and file.
# Behind turbo/results/2026-12-02-simdcopies/, 2026-12-02-lenx/drv-vs-zlibng.txt, 2026-12-03-xeon/.
R=$1; D=$2; shift 2
for f in "$@"; do
  for r in $(seq $R); do for d in $D; do echo "$d $(./$d $f 15 | awk '{print $(NF-1)}')"; done; done | awk -v f=$f '{ if ($2 > b[$1]) b[$1] = $2 } END { for (k in b) printf "%s %s %.1f\n", f, k, b[k] }' | sort
done
