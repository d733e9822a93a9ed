#!/bin/bash
# git cat-file --batch on pristine and zlib-turbo, alternated
R=/work/.mirror/git+git/repo
L=/tmp/x/objlist
ROUNDS=${ROUNDS:-5}
declare -A LIB=([ref]=/work/main/build/zlib-1.3.2 [new]=/work/main/build/zlib-turbo)
for i in $(seq 1 $ROUNDS); do
  if [ $((i % 2)) = 1 ]; then order="ref new"; else order="new ref"; fi
  for w in $order; do
    t=$( { /usr/bin/time -f '%U %S' env LD_LIBRARY_PATH=${LIB[$w]} git -C $R cat-file --batch < $L | sha256sum > /tmp/cf/cf-$w.sha; } 2>&1 )
    echo "$w $t $(cut -c1-16 /tmp/cf/cf-$w.sha)"
  done
done
