#!/bin/bash
# demo.sh REF TURBO
#
# A short side-by-side speed demo (well under a minute on 2 cores): builds
# zbench with REF and TURBO (zlib source trees or libz.a files, see
# run_speed.sh), measures deflate at levels 1 and 6 and inflate (one call,
# zlib; and 16 KiB/64 KiB chunks, gzip) of level-6 streams, and prints the
# summarize.py table.  These are quick numbers (3 reps, short min-time):
# use run_speed.sh for claims.
#
# Data: the Canterbury and Calgary corpora if <repo>/../shared/corpus exists;
# otherwise files any Debian machine has: the pristine zlib sources and docs,
# /usr/share/common-licenses and two binaries from /usr/bin.
# Environment: as run_speed.sh (CC, CFLAGS, BUILD); DEMO_OUT=FILE keeps the
# raw output.
set -eu
[ $# -eq 2 ] || { sed -n '2,16s/^# \{0,1\}//p' "$0" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
start=$(date +%s)

DATA=()
if [ -d "$ROOT/../shared/corpus/canterbury" ] &&
   [ -d "$ROOT/../shared/corpus/calgary" ]; then
    CORPUS=$(cd "$ROOT/../shared/corpus" && pwd)
    DATA=("$CORPUS/canterbury" "$CORPUS/calgary")
    what="the Canterbury and Calgary corpora ($CORPUS)"
else
    # a pristine zlib tree: REF if it is one, else the project's copy
    Z=
    for t in "$1" "$ROOT/build/src/zlib-1.3.2"; do
        if [ -d "$t" ] && [ -f "$t/deflate.c" ]; then Z=$(cd "$t" && pwd); break; fi
    done
    if [ -n "$Z" ]; then
        for f in "$Z"/*.c "$Z"/*.h; do DATA+=("zlib-src=$f"); done
        for f in "$Z"/ChangeLog "$Z"/FAQ "$Z"/README "$Z"/zlib.3 "$Z"/doc/*; do
            [ -f "$f" ] && DATA+=("zlib-doc=$f")
        done
    fi
    [ -d /usr/share/common-licenses ] && DATA+=("licenses=/usr/share/common-licenses")
    n=0
    for b in bash ls tar perl cp; do
        if [ -f "/usr/bin/$b" ] && [ "$n" -lt 2 ]; then
            DATA+=("binaries=/usr/bin/$b"); n=$((n + 1))
        fi
    done
    [ ${#DATA[@]} -gt 0 ] || { echo "demo: no data found" >&2; exit 1; }
    what="stand-in files (no corpus at $ROOT/../shared/corpus): zlib sources and docs${Z:+ from $Z}, /usr/share/common-licenses, $n binaries from /usr/bin"
fi

RAW=${DEMO_OUT:-$(mktemp "${TMPDIR:-/tmp}/zdemo.XXXXXX")}
[ -n "${DEMO_OUT:-}" ] || trap 'rm -f "$RAW"' EXIT
rc=0
REPS=3 LEVELS=1,6 ILEVELS=6 OPS=deflate,inflate-zlib,inflate-gzip-16k \
    MIN_TIME=0.03 "$HERE/run_speed.sh" "$1" "$2" "${DATA[@]}" \
    >"$RAW" 2>"$RAW.log" || rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 2 ]; then
    cat "$RAW.log" >&2; rm -f "$RAW.log"; exit "$rc"
fi
rm -f "$RAW.log"

echo "zlib-turbo speed demo: REF=$1  TURBO=$2"
echo "data: $what"
echo "quick settings: 3 reps, min-time 0.03 s; MB/s = 1e6 bytes/s"
echo
python3 "$HERE/summarize.py" "$RAW" | sed -n '/^set /,$p'
echo
if [ "$rc" = 2 ]; then
    echo "WARNING: some outputs differed between REF and TURBO (ident = NO)"
fi
echo "demo took $(( $(date +%s) - start )) s. Quick numbers on a shared machine: ratios"
echo "within ~5% of 1.00 (per file: ~20%) are noise; see turbo/results/ref-vs-ref-*.md"
exit "$rc"
