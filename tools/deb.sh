#!/bin/sh
# tools/deb.sh VERSION
#
# Debian binary packages of zlib-turbo VERSION, built from the make dist
# tarball (zlib-turbo-VERSION.tar.gz at the repository's top) with the
# packaging in packaging/debian/: dpkg-buildpackage -b -us -uc in build/deb/,
# then lintian on the result (build/deb/lintian.txt).  Fails if the build
# fails, if packaging/debian/changelog is not for VERSION, or if lintian
# reports an error other than the
# placeholder mail address; lintian's warnings and notes are printed, not fatal.
set -eu
VERSION=${1:?usage: deb.sh VERSION}
TOP=$(cd "$(dirname "$0")/.." && pwd)
D=$TOP/build/deb
NAME=zlib-turbo-$VERSION
TARBALL=$TOP/$NAME.tar.gz
[ -f "$TARBALL" ] || { echo "deb: no $NAME.tar.gz: make dist first" >&2; exit 1; }
for t in dpkg-buildpackage dh lintian; do
    command -v $t >/dev/null || {
        echo "deb: $t is missing: apt-get install dpkg-dev debhelper lintian cmake" >&2
        exit 1; }
done
cv=$(dpkg-parsechangelog -l "$TOP/packaging/debian/changelog" -S Version)
[ "${cv%-*}" = "$VERSION" ] ||
    { echo "deb: packaging/debian/changelog is for $cv, not $VERSION" >&2; exit 1; }

rm -rf "$D"
mkdir -p "$D"
tar -xzf "$TARBALL" -C "$D"
cp -R "$TOP/packaging/debian" "$D/$NAME/debian"
ln -s "$TARBALL" "$D/zlib-turbo_$VERSION.orig.tar.gz"
echo "deb: dpkg-buildpackage -b -us -uc in build/deb/$NAME (log: build/deb/build.log)"
start=$(date +%s)
if ! (cd "$D/$NAME" && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" \
        nice dpkg-buildpackage -b -us -uc) >"$D/build.log" 2>&1; then
    tail -n 30 "$D/build.log"
    echo "deb: dpkg-buildpackage failed" >&2
    exit 1
fi
echo "deb: built in $(($(date +%s) - start)) s:"
(cd "$D" && ls -l ./*.deb | awk '{print "  " $5 "  " $NF}')
changes=$(ls "$D"/zlib-turbo_*.changes)
rc=0
lintian --display-info --pedantic "$changes" >"$D/lintian.txt" 2>&1 || rc=$?
echo "deb: lintian $(lintian --version | awk '{print $2}') on $(basename "$changes"):"
if [ -s "$D/lintian.txt" ]; then sed 's/^/  /' "$D/lintian.txt"; else echo "  no tags"; fi
# the project has no mail address yet (zlib-turbo@invalid, as in its
# commits): that error is known and left for whoever publishes the packages
if grep '^E:' "$D/lintian.txt" | grep -qv ' bogus-mail-host'; then
    echo "deb: lintian reports errors" >&2
    exit 1
fi
[ $rc = 0 ] || [ $rc = 2 ] || { echo "deb: lintian failed ($rc)" >&2; exit 1; }
