#!/bin/sh
# interface.sh -- the interface: zlib's, unchanged, plus ours.  zlib.h byte
# for byte zlib 1.3.2's, soname libz.so.1, every versioned symbol of zlib
# 1.3.2 kept, new symbols only under ZLIB_TURBO_1.0 (the first ones) and
# ZLIB_TURBO_1.1 (inflateSetThreads, added after 1.0 was released: a node's
# symbols never change once released, so that the Debian symbols file gives
# each the package version it came with) and declared in zturbo.h, and the
# version (ver.c) equal to $VERSION
set -eu
cmp "$PRISTINE/zlib.h" "$TUR/zlib.h"
echo "zlib.h is byte-identical to zlib 1.3.2's"
readelf -d "$TUR/libz.so.1" | grep -q 'SONAME.*\[libz.so.1\]'
echo "soname libz.so.1"
# every symbol pristine exports, with the same version, is still there
objdump -T "$REF/libz.so.1" | awk '$2 == "g" { print $(NF-1), $NF }' |
    sort >"$LOG/syms-ref"
objdump -T "$TUR/libz.so.1" | awk '$2 == "g" { print $(NF-1), $NF }' |
    sort >"$LOG/syms-tur"
missing=$(comm -23 "$LOG/syms-ref" "$LOG/syms-tur")
[ -z "$missing" ] || { echo "missing or re-versioned: $missing"; exit 1; }
echo "all $(wc -l <"$LOG/syms-ref") versioned symbols of zlib 1.3.2 kept"
extra=$(comm -13 "$LOG/syms-ref" "$LOG/syms-tur" |
        grep -v '^ZLIB_TURBO_1\.[01] ' || true)
[ -z "$extra" ] || { echo "new symbols outside ZLIB_TURBO_1.0/1.1: $extra"; exit 1; }
for vf in 1.0:zlibTurboVersion 1.0:deflatePrepareDictionary \
          1.0:deflateUseDictionary 1.0:deflateFreeDictionary \
          1.0:deflateSetThreads 1.1:inflateSetThreads; do
    v=ZLIB_TURBO_${vf%%:*} f=${vf#*:}
    grep -q "^$v $f\$" "$LOG/syms-tur" ||
        { echo "$f not exported under $v"; exit 1; }
    grep -q "ZEXPORT $f(" "$TUR/zturbo.h" ||
        { echo "$f not declared in zturbo.h"; exit 1; }
    echo "$f exported under $v and declared in zturbo.h"
done
n=$(grep -c '^ZLIB_TURBO_1\.[01] ' "$LOG/syms-tur")
[ "$n" -eq 8 ] || { echo "$n ZLIB_TURBO symbols, not 8 (6 functions, 2 nodes)"; exit 1; }
${CC:-cc} -DVERSION="\"$VERSION\"" -I"$TUR" -o "$LOG/ver" tools/check/ver.c \
    -L"$TUR" -lz
LD_LIBRARY_PATH="$TUR" "$LOG/ver"
