#!/bin/sh
# dist.sh -- make dist writes zlib-turbo-$VERSION.tar.gz, which builds,
# tests and installs on its own in an empty folder and leaves the records of
# turbo/results/ out (the release and Debian orig tarball)
set -eu
t=zlib-turbo-$VERSION.tar.gz
rm -f "$t"
$MAKE -s dist
[ -f "$t" ] || { echo "make dist did not write $t"; exit 1; }
if tar -tzf "$t" | grep -q "^zlib-turbo-$VERSION/turbo/results\(/\|\$\)"; then
    echo "$t holds turbo/results/ (the records stay in the repository)"
    exit 1
fi
d=$LOG/dist
rm -rf "$d"
mkdir -p "$d"
tar -xzf "$t" -C "$d"
cd "$d/zlib-turbo-$VERSION"
[ -f zturbo.h ] && [ -f turbo/TECHNIQUES.md ] && [ ! -d .git ]
./configure
$MAKE test
$MAKE install prefix="$d/inst"
[ -f "$d/inst/include/zturbo.h" ] && [ -f "$d/inst/lib/libz.so.1" ]
echo "the dist tarball builds, tests and installs on its own"
cd "$TOP"
rm -rf "$d"
