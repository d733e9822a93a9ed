#!/bin/sh
# tools/refresh.sh TREE
#
# Turns the commits made in TREE (see mktree.sh) back into the repository:
#   - files that are ours (present in TREE but not in zlib 1.3.2) are copied
#     to src/, with their content at HEAD;
#   - every commit after the "ours" tag becomes one patch,
#     patches/<name>.patch, where <name> is the technique's stable name given
#     by the commit's "Technique: <name>" line; patches never carry our own
#     files (those live whole in src/).
# patches/series is written by hand: its comments and grouping are kept, and
# nothing is renumbered.  A patch that is no longer in TREE loses its line; a
# new technique is added at the end (move its line into its group).  The
# order of the lines must stay the order of the commits in TREE: when the
# two differ (after a `git rebase -i`), refresh stops and says so, and
# nothing is written.
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

# technique COMMIT: the name on the commit's "Technique:" line, or nothing
technique() {
    git -C "$TREE" log -1 --format='%(trailers:key=Technique,valueonly)' "$1" |
        sed -n '1{s/[[:space:]]//g;p;}'
}

# the technique names, in commit order; every commit must carry one
names=
for c in $(git -C "$TREE" rev-list --reverse ours..HEAD); do
    n=$(technique "$c")
    case $n in
        '') echo "refresh: commit $(git -C "$TREE" log -1 --format='%h "%s"' "$c")" \
                 "has no 'Technique: <name>' line; add one (git commit --amend)" >&2
            exit 1 ;;
        *[!a-z0-9-]*) echo "refresh: technique name '$n' (commit $c): use a-z, 0-9 and -" >&2
            exit 1 ;;
    esac
    case " $names " in *" $n "*) echo "refresh: two commits are named $n" >&2; exit 1 ;; esac
    names="$names $n"
done

# the new series: the old one's lines, with vanished patches dropped and new
# ones appended; its patch lines must then be in commit order
old=$TOP/patches/series
[ -f "$old" ] || : >"$old"
rm -rf "$TOP/patches.new"
mkdir -p "$TOP/patches.new"
while IFS= read -r line; do
    p=$(printf '%s\n' "$line" | sed -e 's/#.*//' -e 's/[[:space:]]//g')
    case $p in
        '') printf '%s\n' "$line" ;;
        *.patch) case " $names " in *" ${p%.patch} "*) printf '%s\n' "$line" ;; esac ;;
        *) echo "refresh: patches/series: not a patch file: $line" >&2; exit 1 ;;
    esac
done <"$old" >"$TOP/patches.new/series"
for n in $names; do
    grep -qx "$n\.patch" "$TOP/patches.new/series" ||
        printf '%s.patch\n' "$n" >>"$TOP/patches.new/series"
done
listed=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/\.patch[[:space:]]*$//' \
         "$TOP/patches.new/series" | tr '\n' ' ')
if [ "$(echo $listed)" != "$(echo $names)" ]; then
    rm -rf "$TOP/patches.new"
    echo "refresh: patches/series and $TREE list the techniques in another order:" >&2
    echo "  series: $(echo $listed)" >&2
    echo "  tree:   $(echo $names)" >&2
    echo "edit patches/series (or reorder the commits) so that they agree" >&2
    exit 1
fi

# our own files: added since upstream
own=$(git -C "$TREE" diff --name-only --diff-filter=A upstream HEAD)
rm -rf "$TOP/src.new"
mkdir -p "$TOP/src.new"
for f in $own; do
    mkdir -p "$TOP/src.new/$(dirname "$f")"
    git -C "$TREE" show "HEAD:$f" >"$TOP/src.new/$f"
done

# one patch per commit after "ours", without our own files
set --
for f in $own; do set -- "$@" ":(exclude)$f"; done
for c in $(git -C "$TREE" rev-list --reverse ours..HEAD); do
    n=$(technique "$c")
    git -C "$TREE" format-patch -q --stdout --no-signature --zero-commit \
        --no-numbered --no-stat -1 "$c" -- . "$@" >"$TOP/patches.new/$n.patch"
done

rm -rf "$TOP/src" "$TOP/patches"
mv "$TOP/src.new" "$TOP/src"
mv "$TOP/patches.new" "$TOP/patches"
# the tree now matches the repository: record it, so make does not rebuild
"$TOP/tools/mktree.sh" --stamp "$TREE" 2>/dev/null || true
echo "refresh: src/ ($(echo $own | wc -w) files) and patches/ ($(echo $names | wc -w) patches) updated from $TREE" >&2
git -C "$TOP" status --short -- src patches >&2 || true

# the mutants of turbo/tests/mutants/ patch this tree: say now, not when
# make check's mutation-selftest runs, which of them the change has broken
for m in "$TOP"/turbo/tests/mutants/*.patch; do
    [ -f "$m" ] || continue
    d=$(mktemp -d) || break
    cp -p "$TREE"/*.c "$TREE"/*.h "$d/" 2>/dev/null
    if [ -d "$TREE/cmd" ]; then mkdir "$d/cmd" && cp -p "$TREE"/cmd/*.c "$d/cmd/"; fi
    if ! (cd "$d" && patch -p1 -F0 -N -s --dry-run <"$m") >/dev/null 2>&1; then
        echo "refresh: WARNING: mutant ${m#$TOP/} no longer applies to" \
             "$TREE; update it (make check's mutation-selftest fails)" >&2
    fi
    rm -rf "$d"
done
