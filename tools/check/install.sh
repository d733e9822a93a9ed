#!/bin/sh
# install.sh -- make install into a DESTDIR: every file in its place, the
# pkg-config prefix, a program built and run against the installed
# library (ver.c), and the zturbo command
set -eu
d=$LOG/inst
rm -rf "$d"
$MAKE -s install PREFIX=/opt/zt DESTDIR="$d" >/dev/null
for f in lib/libz.so.1 lib/libz.a include/zlib.h include/zconf.h \
         include/zturbo.h lib/pkgconfig/zlib.pc bin/zturbo; do
    [ -e "$d/opt/zt/$f" ] || { echo "not installed: $f"; exit 1; }
    echo "installed $f"
done
grep -q '^prefix=/opt/zt' "$d/opt/zt/lib/pkgconfig/zlib.pc"
${CC:-cc} -DVERSION="\"$VERSION\"" -I"$d/opt/zt/include" -o "$d/ver" \
    tools/check/ver.c -L"$d/opt/zt/lib" -lz
LD_LIBRARY_PATH="$d/opt/zt/lib" "$d/ver"
# the installed command: a round trip through a pipe
echo "zturbo round trip" | "$d/opt/zt/bin/zturbo" -n -T2 | "$d/opt/zt/bin/zturbo" -d |
    grep -qx "zturbo round trip"
echo "installed zturbo: round trip through a pipe"
rm -rf "$d"
