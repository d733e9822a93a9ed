#!/bin/sh
# zlib-test.sh TREE -- zlib's own `make test` in TREE
set -eu
$MAKE -C "$1" test
