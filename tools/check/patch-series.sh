#!/bin/sh
# patch-series.sh -- src/ + patches/ make exactly the tree that was tested
# (build/zlib-turbo, committed, no edits left out of the series)
set -eu
rm -rf "$LOG/tree"
sh tools/mktree.sh "$PRISTINE" "$LOG/tree"
a=$(git -C "$TUR" rev-parse 'HEAD^{tree}')
b=$(git -C "$LOG/tree" rev-parse 'HEAD^{tree}')
git -C "$LOG/tree" log --oneline
if [ "$a" != "$b" ]; then
    echo "build/zlib-turbo differs from what src/ and patches/ make:"
    echo "commit your edits there and run 'make refresh'"
    exit 1
fi
d=$(git -C "$TUR" status --porcelain --untracked-files=no)
[ -z "$d" ] || { echo "uncommitted edits in build/zlib-turbo: $d"; exit 1; }
echo "src/ + patches/ make exactly build/zlib-turbo"
rm -rf "$LOG/tree"
