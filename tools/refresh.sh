#!/bin/sh
# tools/refresh.sh TREE
#
# Turns the commits made in TREE (see mktree.sh) back into the repository:
#   - files that are ours (present in TREE but not in zlib 1.3.2) are copied
#     to src/, with their content at HEAD;
#   - every commit after the "ours" tag becomes one patch in patches/, in
#     order, with patches/series listing them; patches never carry our own
#     files (those live whole in src/).
# Uncommitted edits in TREE are refused: commit them first (a new commit for
# a new technique, `git commit --amend` or `git rebase -i` to change one).
set -eu
TREE=${1:?usage: refresh.sh TREE}
TOP=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
    echo "refresh: $TREE has uncommitted edits; commit them there first:" >&2
    git -C "$TREE" status --short --untracked-files=no >&2
    exit 1
fi
if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=normal -- '*.c' '*.h')" ]; then
    echo "refresh: note: untracked sources in $TREE are not kept:" >&2
    git -C "$TREE" status --short -- '*.c' '*.h' >&2
fi

# our own files: added since upstream
own=$(git -C "$TREE" diff --name-only --diff-filter=A upstream HEAD)
rm -rf "$TOP/src.new"
mkdir -p "$TOP/src.new"
for f in $own; do
    mkdir -p "$TOP/src.new/$(dirname "$f")"
    git -C "$TREE" show "HEAD:$f" >"$TOP/src.new/$f"
done

# the patches: every commit after "ours", without our own files
rm -rf "$TOP/patches.new"
mkdir -p "$TOP/patches.new"
set -- 
for f in $own; do set -- "$@" ":(exclude)$f"; done
git -C "$TREE" format-patch -q --no-signature --zero-commit --no-numbered \
    --no-stat -o "$TOP/patches.new" ours..HEAD -- . "$@"
(cd "$TOP/patches.new" && ls *.patch 2>/dev/null || true) >"$TOP/patches.new/series"

rm -rf "$TOP/src" "$TOP/patches"
mv "$TOP/src.new" "$TOP/src"
mv "$TOP/patches.new" "$TOP/patches"
# the tree now matches the repository: record it, so make does not rebuild
"$TOP/tools/mktree.sh" --stamp "$TREE" 2>/dev/null || true
echo "refresh: src/ ($(echo $own | wc -w) files) and patches/ ($(wc -l <"$TOP/patches/series") patches) updated from $TREE" >&2
git -C "$TOP" status --short -- src patches >&2 || true
