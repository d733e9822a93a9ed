#!/bin/sh
# packaging/gen-symbols.sh LIB DEBIAN_SYMBOLS TURBO_VERSION > packaging/debian/zlib1g.symbols
# Writes the symbols file for LIB (the built libz.so.1.3.2): each exported
# symbol with the zlib1g version it first appeared in, taken from Debian 12's
# zlib1g symbols file (/var/lib/dpkg/info/zlib1g:amd64.symbols) where it is
# there; ZLIB_1.3.1.2 and ZLIB_1.3.2 get 1:1.3.dfsg+really1.3.2 (Debian's
# first zlib1g of zlib 1.3.2), ZLIB_TURBO_1.0 the first zlib-turbo package
# (turbo1.0.0) and ZLIB_TURBO_1.1 TURBO_VERSION (the release that added it).
LIB=$1 DEBSYM=$2 TURBO=$3
echo "libz.so.1 zlib1g #MINVER#"
echo "* Build-Depends-Package: zlib1g-dev"
objdump -T "$LIB" | awk '$2=="g" && $4!="*UND*" {print $NF "@" $(NF-1)}' | LC_ALL=C sort -u |
while read -r s; do
    m=$(awk -v s="$s" '$1==s {print $2}' "$DEBSYM")
    if [ -z "$m" ]; then
        case $s in
        *@ZLIB_TURBO_1.0) m=1:1.3.dfsg+really1.3.2+turbo1.0.0 ;;
        *@ZLIB_TURBO_1.1) m=$TURBO ;;
        *@ZLIB_1.3.1.2|*@ZLIB_1.3.2) m=1:1.3.dfsg+really1.3.2 ;;
        *) echo "no version for $s" >&2; exit 1 ;;
        esac
    fi
    echo " $s $m"
done
