#!/bin/sh
# inflate_icount.sh TREE FILE.z... -- executed instructions of inflate()
# (ICOUNT_MODE=16k: 16 KiB in / 64 KiB out at a time instead of one call)
#
# Compiles the inflate side of the zlib source TREE (adler32 crc32 inflate
# inffast inftrees infback zutil; turbo/harness/pair.sh objs) with $CC
# $CFLAGS (cc, pair.sh's bench flags: -O2), links it with
# inflate_icount.c, and prints for each zlib stream FILE.z the instructions
# that valgrind's callgrind counts for one whole inflate() of it (the whole
# program, startup included).  Run it on two trees to compare a change:
# the counts are the same from run to run, unlike time on a shared machine.
# Make streams with e.g.
#   python3 -c 'import sys,zlib; sys.stdout.buffer.write(zlib.compress(open(sys.argv[1],"rb").read()[:3000000], 1))' FILE > FILE.1.z
set -eu
[ $# -ge 2 ] || { sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 2; }
T=$(cd "$1" && pwd); shift
HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
CFLAGS=${CFLAGS:-$(sh "$HERE/../harness/pair.sh" cflags bench)}
B=$(mktemp -d "${TMPDIR:-/tmp}/icount.XXXXXX")
trap 'rm -rf "$B"' EXIT INT TERM
CC=$CC CFLAGS=$CFLAGS sh "$HERE/../harness/pair.sh" objs "$T" "$B" \
    adler32 crc32 inflate inffast inftrees infback zutil
# shellcheck disable=SC2086
$CC $CFLAGS -I"$T" "$HERE/inflate_icount.c" "$B"/*.o -o "$B/icount"
for z in "$@"; do
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B/icount" "$z" 1 ${ICOUNT_MODE:-whole} \
        2>&1 >/dev/null | awk -v z="$(basename "$z")" \
        '/Collected/ { printf "%-24s %s\n", z, $4 }'
done
