#!/bin/sh
# crc.sh NAME: size and CRC-32 of levels 10, 11, 12 (zrun-NAME) over the 29 Canterbury+Calgary files and the 2 large files
N=$1; C=/work/shared/corpus
for L in 10 11 12; do
  nice ./zrun-$N $L $(find $C/canterbury $C/calgary $C/large -type f | LC_ALL=C sort) | awk -v L=$L '{print "L" L, $1, $2, $3}'
done
