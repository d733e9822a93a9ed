#!/bin/sh
# tools/deb.sh VERSION
#
# Debian binary packages of zlib-turbo VERSION, built from the make dist
# tarball (zlib-turbo-VERSION.tar.gz at the repository's top) with the
# packaging in packaging/debian/: dpkg-buildpackage -b -us -uc in build/deb/,
# then lintian on the result (build/deb/lintian.txt).  Fails if the build
# fails, if packaging/debian/changelog is not for VERSION, or if lintian
# reports an error; lintian's warnings and notes are printed, not fatal.
#
# The maintainer: DEBFULLNAME and DEBEMAIL, as for dch(1) (DEBEMAIL may also
# be "Name <address>" alone), replace the placeholder of packaging/debian/
# (zlib-turbo <zlib-turbo@invalid>: the project has no mail address) in the
# copied control file and changelog trailer.  Whoever publishes the packages
# sets them; without them lintian's bogus-mail-host error on the placeholder
# is reported and allowed, and it is the only error allowed.
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
PLACEHOLDER='zlib-turbo <zlib-turbo@invalid>'
maint=
case ${DEBEMAIL:-} in
    '') ;;
    *'<'*'>') maint=$DEBEMAIL ;;
    *) maint="${DEBFULLNAME:?deb: DEBEMAIL without DEBFULLNAME} <$DEBEMAIL>" ;;
esac
if [ -n "$maint" ]; then
    case $maint in *[\\\|\&]*)
        echo "deb: unusable maintainer: $maint" >&2; exit 1 ;; esac
    for f in control changelog; do
        sed "s|$PLACEHOLDER|$maint|" "$D/$NAME/debian/$f" >"$D/$f.new"
        mv "$D/$f.new" "$D/$NAME/debian/$f"
    done
    grep -q "^Maintainer: $maint\$" "$D/$NAME/debian/control" ||
        { echo "deb: the maintainer was not set in debian/control" >&2; exit 1; }
    echo "deb: maintainer $maint"
else
    echo "deb: maintainer $PLACEHOLDER (placeholder; set DEBFULLNAME and DEBEMAIL to publish)"
fi
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
# the placeholder's error is allowed only while the placeholder is used
if [ -n "$maint" ]; then
    errors=$(grep -c '^E:' "$D/lintian.txt" || true)
else
    errors=$(grep '^E:' "$D/lintian.txt" | grep -cv ' bogus-mail-host' || true)
fi
if [ "$errors" != 0 ]; then
    echo "deb: lintian reports $errors error(s)" >&2
    exit 1
fi
[ $rc = 0 ] || [ $rc = 2 ] || { echo "deb: lintian failed ($rc)" >&2; exit 1; }
