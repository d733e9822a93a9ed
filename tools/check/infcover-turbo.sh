#!/bin/sh
# infcover-turbo.sh -- zlib's test/infcover.c (inflate's coverage test) on
# the patched tree
set -eu
$MAKE -C "$TUR" infcover
cd "$TUR" && ./infcover
