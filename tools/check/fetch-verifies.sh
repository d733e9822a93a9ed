#!/bin/sh
# fetch-verifies.sh -- upstream/fetch.sh refuses a tarball with one byte of
# one file changed and leaves nothing behind; the cached tarball verifies
set -eu
w=$LOG/fetch
rm -rf "$w"
mkdir -p "$w/x"
tar -xzf "$B/dl/zlib-1.3.2.tar.gz" -C "$w/x"
f=$(ls -d "$w"/x/*/)deflate.c
sed -i 's/TOO_FAR 4096/TOO_FAR 4095/' "$f"
(cd "$w/x" && tar -czf "$w/bad.tar.gz" .)
if ZLIB_TARBALL="$w/bad.tar.gz" sh upstream/fetch.sh "$w/out"; then
    echo "a tampered tarball was accepted"
    exit 1
fi
[ ! -e "$w/out" ] || { echo "something was left at the destination"; exit 1; }
ZLIB_TARBALL="$B/dl/zlib-1.3.2.tar.gz" sh upstream/fetch.sh "$w/good"
echo "tampered tarball refused, nothing left behind; the cached one verifies"
rm -rf "$w"
