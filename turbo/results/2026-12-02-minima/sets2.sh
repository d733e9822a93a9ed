#!/bin/sh
# sets.sh: level 10-12 CPU seconds per set, base (before) and new (after) alternated, 3 runs, min and median
C=/work/shared/corpus
for set in canterbury calgary large mixed; do
  files=$(find $C/$set -type f | LC_ALL=C sort)
  for L in 10 11 12; do
    for z in base new; do :; done
    r=$(sh ab.sh 3 $L "new lanes" $files | tr '\n' ' ')
    sz=$(./zrun-lanes $L $files | tail -1 | awk '{print $2}')
    echo "$set L$L bytes $sz  $r"
  done
done
