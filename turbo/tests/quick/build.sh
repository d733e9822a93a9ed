#!/bin/sh
# build.sh OUTDIR REF TUR ZINC [CC] [CFLAGS]: builds OUTDIR/diffinf
#
# REF, TUR: a libz.a or a zlib source tree each; ZINC: the folder of zlib.h.
# CC and CFLAGS (default pair.sh's test flags, -O2) come from the arguments
# or else from the environment, with LD, NM, OBJCOPY for cross toolchains
# (turbo/results/2026-11-29/inflate-portability-2026-11-29.txt).  Built by
# turbo/harness/pair.sh.
set -eu
[ $# -ge 4 ] || { sed -n '2,9s/^# \{0,1\}//p' "$0" >&2; exit 2; }
H=$(cd "$(dirname "$0")/../../harness" && pwd)
D=$(cd "$(dirname "$0")" && pwd)
CC=${5:-${CC:-cc}}
CFLAGS=${6:-${CFLAGS:-$(sh "$H/pair.sh" cflags test)}}
export CC CFLAGS
ZINC=$4 sh "$H/pair.sh" build "$1" diffinf "$2" "$3" "$D/diffinf.c"
