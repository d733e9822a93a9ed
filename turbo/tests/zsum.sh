#!/bin/sh
# zsum.sh TREE [CFLAGS [ZSUM-ARGS]]
#
# Compiles the zlib sources at the top of TREE (e.g. build/zlib-turbo;
# turbo/harness/pair.sh objs) and turbo/tests/zsum.c with $CC and CFLAGS
# (default pair.sh's test flags, -O2), links them and runs the checker.
# Examples:
#   sh turbo/tests/zsum.sh build/zlib-turbo -O2
#   sh turbo/tests/zsum.sh build/zlib-turbo "-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all"
#   sh turbo/tests/zsum.sh build/zlib-turbo "-O2 -m32"
#   CC="s390x-linux-gnu-gcc -static" RUN=qemu-s390x sh turbo/tests/zsum.sh build/zlib-turbo -O2 -q
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TREE=${1:?usage: zsum.sh TREE [CFLAGS [ARGS]]}
CFLAGS=${2:-$(sh "$TOP/turbo/harness/pair.sh" cflags test)}
ARGS=${3:-}
CC=${CC:-cc}
W=$(mktemp -d "${TMPDIR:-/tmp}/zsum.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
CC=$CC CFLAGS=$CFLAGS sh "$TOP/turbo/harness/pair.sh" objs "$TREE" "$W"
# shellcheck disable=SC2086
$CC $CFLAGS -I"$TREE" -o "$W/zsum" "$TOP/turbo/tests/zsum.c" "$W"/*.o -lpthread
echo "zsum: $TREE, $CC $CFLAGS"
# shellcheck disable=SC2086
${RUN:-} "$W/zsum" $ARGS
