#!/bin/sh
# crcmix.sh NAME: size and CRC-32 of levels 10, 11, 12 (zrun-NAME) over the first 1 MiB of each mixed file
N=$1; C=/work/shared/corpus
for L in 10 11 12; do
  MAXB=1048576 nice ./zrun-$N $L $(find $C/mixed -type f | LC_ALL=C sort) | awk -v L=$L '{print "L" L, $1, $2, $3}'
done
