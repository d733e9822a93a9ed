#!/bin/sh
# sz.sh BIN LEVEL: total raw bytes per corpus set (env passed through)
B=$1; L=$2; C=/work/shared/corpus
for s in canterbury calgary large mixed; do
  printf "%s %s\n" $s "$(nice ./zrun-$B $L $(find $C/$s -type f | LC_ALL=C sort) | tail -1)"
done
