#!/bin/sh
# interface.sh -- the interface: zlib's, unchanged, plus ours.  zlib.h byte
# for byte zlib 1.3.2's, soname libz.so.1, every versioned symbol of zlib
# 1.3.2 kept, new symbols only under ZLIB_TURBO_1.0 and declared in
# zturbo.h, and the version (ver.c) equal to $VERSION
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
extra=$(comm -13 "$LOG/syms-ref" "$LOG/syms-tur" | grep -v '^ZLIB_TURBO_1.0 ' || true)
[ -z "$extra" ] || { echo "new symbols outside ZLIB_TURBO_1.0: $extra"; exit 1; }
for f in zlibTurboVersion deflatePrepareDictionary deflateUseDictionary \
         deflateFreeDictionary; do
    grep -q "^ZLIB_TURBO_1.0 $f\$" "$LOG/syms-tur" ||
        { echo "$f not exported under ZLIB_TURBO_1.0"; exit 1; }
    grep -q "ZEXPORT $f(" "$TUR/zturbo.h" ||
        { echo "$f not declared in zturbo.h"; exit 1; }
    echo "$f exported under ZLIB_TURBO_1.0 and declared in zturbo.h"
done
${CC:-cc} -DVERSION="\"$VERSION\"" -I"$TUR" -o "$LOG/ver" tools/check/ver.c \
    -L"$TUR" -lz
LD_LIBRARY_PATH="$TUR" "$LOG/ver"
