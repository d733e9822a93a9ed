#!/bin/sh
# tools/mktree.sh PRISTINE DEST
#
# Makes DEST, the zlib-turbo tree: the verified pristine zlib 1.3.2 at
# PRISTINE, plus our own source files (src/), plus the patch series
# (patches/series), as a git repository with one commit per step:
#
#   upstream   zlib 1.3.2, as verified against upstream/zlib-1.3.2.sha256
#   ours       our own files, copied from src/
#   ...        one commit per patch, in series order (git am)
#
# so that `git log` in DEST reads as the list of techniques.  Edits made in
# DEST go back into the repository with tools/refresh.sh (make refresh).
#
# An existing DEST is rebuilt only when src/ or patches/ changed since it was
# made, and never over work that is not yet in patches/: then it stops and
# says so.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)

# the inputs' fingerprint: names and contents of src/ and patches/
inputs_id() {
    (cd "$TOP" && find src patches -type f | LC_ALL=C sort |
        xargs sha256sum | sha256sum | cut -d' ' -f1)
}

# mktree.sh --stamp TREE: record that TREE, as it is, is what src/ and
# patches/ make (used by refresh.sh after writing them from TREE)
if [ "${1:-}" = "--stamp" ]; then
    inputs_id >"$2/.git/zt-inputs"
    git -C "$2" rev-parse HEAD >"$2/.git/zt-head"
    exit 0
fi

PRISTINE=${1:?usage: mktree.sh PRISTINE DEST}
DEST=${2:?usage: mktree.sh PRISTINE DEST}

say() { echo "mktree: $*" >&2; }
ID=$(inputs_id)

if [ -d "$DEST/.git" ]; then
    made=$(cat "$DEST/.git/zt-inputs" 2>/dev/null || true)
    head=$(cat "$DEST/.git/zt-head" 2>/dev/null || true)
    if [ "$made" = "$ID" ]; then
        exit 0                              # up to date
    fi
    now=$(git -C "$DEST" rev-parse HEAD 2>/dev/null || true)
    dirty=$(git -C "$DEST" status --porcelain --untracked-files=no 2>/dev/null || true)
    if [ "$now" != "$head" ] || [ -n "$dirty" ]; then
        cat >&2 <<MSG
mktree: src/ or patches/ changed, but $DEST holds work that is not in
patches/ yet (new commits or uncommitted edits).  Either keep that work:
    commit it in $DEST, then run:  make refresh
or throw it away and rebuild the tree:
    make reset-tree
MSG
        exit 1
    fi
    say "src/ or patches/ changed: rebuilding $DEST"
    rm -rf "$DEST"
elif [ -e "$DEST" ]; then
    say "$DEST exists but is not a git tree; remove it or run make reset-tree"
    exit 1
fi

TMP="$DEST.tmp.$$"
rm -rf "$TMP"
trap 'rm -rf "$TMP"' EXIT INT TERM
cp -a "$PRISTINE" "$TMP"

g() { git -C "$TMP" -c user.name=zlib-turbo -c user.email=zlib-turbo@invalid \
          -c commit.gpgsign=false -c core.autocrlf=false "$@"; }
g init -q
# zlib's build writes these into the tree: keep them out of git's way
cat >>"$TMP/.git/info/exclude" <<'EXC'
*.o
*.lo
*.a
*.so
*.so.*
*.gcda
*.gcno
*.gcov
*.dylib
/example
/examplesh
/example64
/minigzip
/minigzipsh
/minigzip64
/infcover
/configure.log
/zlib.pc
/zconf.h.cmakein
/zconf.h.included
/foo.gz
/build*/
EXC
g add -A
GIT_COMMITTER_DATE='2026-02-17T00:00:00Z' GIT_AUTHOR_DATE='2026-02-17T00:00:00Z' \
    g commit -q -m "zlib 1.3.2, pristine (verified against upstream/zlib-1.3.2.sha256)"
g tag upstream
# ./configure rewrites these two in place; they are never patched
g update-index --skip-worktree Makefile zconf.h

(cd "$TOP/src" && find . -type f | LC_ALL=C sort) | while IFS= read -r f; do
    mkdir -p "$TMP/$(dirname "$f")"
    cp "$TOP/src/$f" "$TMP/$f"
done
g add -A
GIT_COMMITTER_DATE='2026-02-17T00:00:00Z' GIT_AUTHOR_DATE='2026-02-17T00:00:00Z' \
    g commit -q --allow-empty -m "zlib-turbo: our own source files (from src/)"
g tag ours

if [ -f "$TOP/patches/series" ]; then
    sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series" |
    while IFS= read -r p; do
        if ! g am -q --committer-date-is-author-date "$TOP/patches/$p"; then
            g am --abort >/dev/null 2>&1 || true
            say "patch $p does not apply"
            exit 1
        fi
    done
fi
g rev-parse HEAD >"$TMP/.git/zt-head"
echo "$ID" >"$TMP/.git/zt-inputs"
mv "$TMP" "$DEST"
trap - EXIT INT TERM
say "made $DEST: $(git -C "$DEST" rev-list --count ours..HEAD) patches on zlib 1.3.2"
