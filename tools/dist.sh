#!/bin/sh
# tools/dist.sh TREE NAME
#
# Writes NAME.tar.gz at the repository's top: the patched tree as committed in
# TREE (zlib 1.3.2 + our files + the patch series; no build products), with
# zlib-turbo's own folder turbo/ (tests, benchmarks, TECHNIQUES.md) and the
# patch series itself under turbo/patches/ for reference.  turbo/results/
# (the records of measurements) stays in the repository: nothing the build or
# the tests use lives there.  This tarball is also the Debian orig tarball
# (tools/deb.sh).  It builds and tests on its own: ./configure && make test
# && make install.
set -eu
TREE=${1:?usage: dist.sh TREE NAME}
NAME=${2:?usage: dist.sh TREE NAME}
TOP=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
    echo "dist: $TREE has uncommitted edits; commit and 'make refresh' first" >&2
    exit 1
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/zt-dist.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
mkdir "$WORK/$NAME"
git -C "$TREE" archive --format=tar HEAD | tar -xf - -C "$WORK/$NAME"
(cd "$TOP" && git ls-files -co --exclude-standard -- turbo patches) |
while IFS= read -r f; do
    [ -f "$TOP/$f" ] || continue        # tracked but deleted in the work tree
    case "$f" in turbo/results/*) continue ;; esac     # records, not shipped
    case "$f" in patches/*) d="turbo/$f" ;; *) d="$f" ;; esac
    mkdir -p "$WORK/$NAME/$(dirname "$d")"
    cp -p "$TOP/$f" "$WORK/$NAME/$d"
done
# one fixed time for every file, so the same sources give the same tarball
(cd "$WORK" && tar --sort=name --mtime=@1771286400 --owner=0 --group=0 \
    --numeric-owner -cf - "$NAME" | gzip -n -9 >"$TOP/$NAME.tar.gz")
echo "dist: wrote $NAME.tar.gz ($(wc -c <"$TOP/$NAME.tar.gz") bytes)"
