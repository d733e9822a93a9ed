#!/bin/bash
# inflate_git_catfile.sh -- git cat-file --batch (user and system seconds, sha256 of the output)
# with pristine zlib (ref), zlib-turbo before (old) and after (new) by LD_LIBRARY_PATH, alternated,
# ROUNDS rounds (default 5); the repository, object list and builds are the paths set below.
# Behind turbo/results/2026-12-03-tail/git-catfile-3way.txt and 2026-12-03-adler/git-catfile-3way-raw.txt.
R=/work/.mirror/git+git/repo
L=/tmp/x/objlist
ROUNDS=${ROUNDS:-5}
declare -A LIB=([ref]=/work/main/build/zlib-1.3.2 [old]=/tmp/old/build/zlib-turbo [new]=/work/main/build/zlib-turbo)
for i in $(seq 1 $ROUNDS); do
  if [ $((i % 2)) = 1 ]; then order="ref old new"; else order="new old ref"; fi
  for w in $order; do
    t=$( { /usr/bin/time -f '%U %S' env LD_LIBRARY_PATH=${LIB[$w]} git -C $R cat-file --batch < $L | sha256sum > /tmp/cf/cf-$w.sha; } 2>&1 )
    echo "$w $t $(cut -c1-16 /tmp/cf/cf-$w.sha)"
  done
done
