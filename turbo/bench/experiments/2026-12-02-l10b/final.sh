#!/bin/sh
# final.sh: (a) per-file processes, interleaved (turbo/bench/optimal_perfile_sets.sh), REPS 3 (mixed 1);
# (b) one process per set (lead style), REPS 3 (mixed 1), base:10 c6:10 ld
C=/work/shared/corpus
uptime
SETS="canterbury calgary large" sh "$(dirname "$0")/../../optimal_perfile_sets.sh" 3 "base:0 base:10 c6:10"
SETS="mixed" sh "$(dirname "$0")/../../optimal_perfile_sets.sh" 1 "base:0 base:10 c6:10"
uptime
for s in canterbury calgary large; do
  for x in "base 0" "base 10" "c6 10"; do set -- $x
    echo "$s $1:$2 $(REPS=3 ./zrun-$1 $2 $(find $C/$s -type f | LC_ALL=C sort) | tail -1)"
  done
done
uptime
