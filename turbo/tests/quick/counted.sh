#!/bin/sh
# counted.sh OUTDIR PRISTINE_TREE TURBO_TREE: builds diffinf-counted, where
# both libraries count the symbols their inflate_fast() decodes (a counter
# after each literal and each length in a copy of each inffast.c), so the driver can check that turbo's
# fast loop decodes exactly the symbols zlib 1.3.2's does, call by call.
# CC, CFLAGS (default pair.sh's test flags, -O2); built by
# turbo/harness/pair.sh.
set -eu
O=$1; P=$2; T=$3
H=$(cd "$(dirname "$0")/../../harness" && pwd)
D=$(cd "$(dirname "$0")" && pwd)
CFLAGS=${CFLAGS:-$(sh "$H/pair.sh" cflags test)}
export CFLAGS
mkdir -p "$O"
for x in ref:$P tur:$T; do
    n=${x%%:*}; src=${x#*:}
    rm -rf "$O/$n-tree"; mkdir -p "$O/$n-tree"
    cp "$src"/*.c "$src"/*.h "$O/$n-tree/"
    # count each literal and each length/distance pair that inflate_fast()
    # decodes (not loop iterations: zlib-turbo's loop decodes up to three
    # literals per iteration, inflate-literal-runs)
    awk '/^void ZLIB_INTERNAL inflate_fast/ { print "unsigned long zt_fast_syms;" }
         { print }
         /^ *\*out\+\+ = \(unsigned char\)\(here(\.|->)val\);/ ||
         /^ *len = \(unsigned\)\(here(\.|->)val\);/ { print "zt_fast_syms++;" }' \
        "$src/inffast.c" >"$O/$n-tree/inffast.c"
    grep -q 'zt_fast_syms++' "$O/$n-tree/inffast.c"
done
ZINC=$P DRIVER_CFLAGS=-DCOUNTED sh "$H/pair.sh" build "$O" diffinf-counted \
    "$O/ref-tree" "$O/tur-tree" "$D/diffinf.c"
