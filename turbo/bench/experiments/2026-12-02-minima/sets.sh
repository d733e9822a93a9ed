#!/bin/sh
# sets.sh [A B]: level 10-12 CPU seconds per set for builds zrun-A and zrun-B
# (default base and new) alternated, 3 runs each (ab.sh), least and median;
# the bytes column is B's
A=${1:-base}; B=${2:-new}
C=/work/shared/corpus
for set in canterbury calgary large mixed; do
  files=$(find $C/$set -type f | LC_ALL=C sort)
  for L in 10 11 12; do
    r=$(sh ab.sh 3 $L "$A $B" $files | tr '\n' ' ')
    sz=$(./zrun-$B $L $files | tail -1 | awk '{print $2}')
    echo "$set L$L bytes $sz  $r"
  done
done
