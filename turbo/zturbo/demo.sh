#!/bin/sh
# turbo/zturbo/demo.sh -- zturbo beside gzip and pigz on one big file
#
#     sh turbo/zturbo/demo.sh [FILE [LEVEL]]
#
# Times compressing FILE at LEVEL (default 6) to a file with gzip, pigz -p1
# and -p2 (when installed), zturbo built on pristine zlib 1.3.2, and zturbo
# on zlib-turbo with -T1 and -T2; then decompressing zturbo's output with
# each.  Then prints the sha256 of `zturbo -n` output for -T 1, 2, 4 and 8
# and of the pristine build's: one sum on every line (zlib 1.3.2's bytes).
# FILE defaults to the mixed set of ../shared/corpus joined (107 MB), or
# 64 MiB of generated text without it.  A demonstration for the README, not
# a test: the numbers depend on the machine and its load.  Needs `make
# build`; TUR, REF, CC, CFLAGS (default -O2), O (default build/zturbo-demo)
# as in test.sh.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TUR=${TUR:-$TOP/build/zlib-turbo}
REF=${REF:-$TOP/build/zlib-1.3.2}
# the program's source: ours, src/cmd/zturbo.c, as the patched tree has it
SRC=${ZTURBO_SRC:-$TUR/cmd/zturbo.c}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
O=${O:-$TOP/build/zturbo-demo}
LEVEL=${2:-6}

for f in "$TUR/libz.a" "$TUR/zturbo.h" "$REF/libz.a"; do
    [ -f "$f" ] || { echo "demo.sh: $f missing (make build first)" >&2; exit 1; }
done
mkdir -p "$O" || exit 1
ZT=$O/zturbo
ZR=$O/zturbo-pristine
# shellcheck disable=SC2086
$CC $CFLAGS -I"$TUR" -o "$ZT" "$SRC" "$TUR/libz.a" -pthread &&
$CC $CFLAGS -DZTURBO_PRISTINE -I"$REF" -o "$ZR" "$SRC" \
    "$REF/libz.a" || exit 1

if [ $# -ge 1 ]; then
    IN=$1
    what=$1
elif [ -d "$TOP/../shared/corpus/mixed" ]; then
    IN=$O/mixed.all
    [ -f "$IN" ] || cat "$TOP/../shared/corpus/mixed/"* >"$IN"
    what="the corpus's mixed set, joined"
else
    IN=$O/text.64m
    [ -f "$IN" ] || awk 'BEGIN { x = 1; while (n < 67108864) {
        x = (x * 1103515245 + 12345) % 2147483648;
        s = sprintf("%d %s ", x % 100000, (x % 7) ? "zlib" : "turbo\n");
        printf "%s", s; n += length(s) } }' | head -c 67108864 >"$IN"
    what="64 MiB of generated text"
fi
[ -f "$IN" ] || { echo "demo.sh: no file $IN" >&2; exit 1; }
cat "$IN" >/dev/null                    # into the page cache
size=$(wc -c <"$IN" | tr -d ' ')
if command -v sha256sum >/dev/null 2>&1; then SHA="sha256sum"
else SHA="shasum -a 256"; fi

now() { date +%s.%N; }
case $(now) in *N) now() { date +%s; } ;; esac
# timed LABEL OUT COMMAND...: runs COMMAND >OUT, prints a line of the table
timed() {
    label=$1 out=$2
    shift 2
    a=$(now)
    "$@" >"$out" || echo "demo.sh: $label failed" >&2
    b=$(now)
    awk -v a="$a" -v b="$b" -v n="$size" -v l="$label" -v o="$(wc -c <"$out")" \
        'BEGIN { s = b - a; if (s <= 0) s = 0.001;
                 printf "  %-36s %7.2f s %8.1f MB/s %12d bytes\n", l, s, n / s / 1e6, o }'
}

echo "zturbo demo: $what, $size bytes, level $LEVEL, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "compress (MB/s of input):"
timed "gzip $(gzip --version | head -n1 | cut -d' ' -f2) -$LEVEL" "$O/gzip.gz" \
    gzip -n -"$LEVEL" -c "$IN"
if command -v pigz >/dev/null 2>&1; then
    pv=$(pigz --version 2>&1 | cut -d' ' -f2)
    timed "pigz $pv -$LEVEL -p1" "$O/pigz1.gz" pigz -n -"$LEVEL" -p1 -c "$IN"
    timed "pigz $pv -$LEVEL -p2" "$O/pigz2.gz" pigz -n -"$LEVEL" -p2 -c "$IN"
else
    echo "  (pigz not installed: apt-get install -y pigz)"
fi
timed "zturbo -$LEVEL -T1 on zlib 1.3.2" "$O/ref.gz" "$ZR" -n -"$LEVEL" -T1 -c "$IN"
timed "zturbo -$LEVEL -T1 on zlib-turbo" "$O/t1.gz" "$ZT" -n -"$LEVEL" -T1 -c "$IN"
timed "zturbo -$LEVEL -T2 on zlib-turbo" "$O/t2.gz" "$ZT" -n -"$LEVEL" -T2 -c "$IN"

echo "decompress zturbo's output (MB/s of output):"
timed "gzip -dc" "$O/d.out" gzip -dc "$O/t1.gz"
if command -v pigz >/dev/null 2>&1; then
    timed "pigz -dc" "$O/d.out" pigz -dc "$O/t1.gz"
fi
timed "zturbo -dc on zlib 1.3.2" "$O/d.out" "$ZR" -dc "$O/t1.gz"
timed "zturbo -dc on zlib-turbo" "$O/d.out" "$ZT" -dc "$O/t1.gz"
cmp -s "$O/d.out" "$IN" || echo "demo.sh: the output does not decompress to the input!" >&2
rm -f "$O/d.out"

echo "sha256 of zturbo -n -$LEVEL output (zlib 1.3.2's bytes for every -T):"
"$ZT" -n -"$LEVEL" -T4 -c "$IN" >"$O/t4.gz"
"$ZT" -n -"$LEVEL" -T8 -c "$IN" >"$O/t8.gz"
for x in t1:"zlib-turbo -T1" t2:"zlib-turbo -T2" t4:"zlib-turbo -T4" \
         t8:"zlib-turbo -T8" ref:"zlib 1.3.2  -T1"; do
    f=${x%%:*}
    echo "  $($SHA <"$O/$f.gz" | cut -d' ' -f1)  ${x#*:}"
done
rm -f "$O"/*.gz
