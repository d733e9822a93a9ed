#!/bin/sh
# tools/check/deb.sh VERSION -- zlib-turbo's Debian packages (build/deb/, made
# by make deb) on a throwaway Debian 12 root made with mmdebstrap: installed
# with apt-get install ./x.deb over Debian's zlib1g and zlib1g-dev, then
# libz.so.1 must be zlib-turbo's (zlibTurboVersion in the library every
# program loads) and common programs must work on it: apt-get update and
# install, dpkg-deb --build and -x, Python's test_zlib, test_gzip and
# test_zipfile, git init/commit/gc/fsck/clone, zcat and man of gzipped
# manual pages, pigz and zip, a program built with cc -lz and zturbo.h.
# Then Debian's zlib1g and zlib1g-dev are installed again with apt-get (the
# commands of the README, a downgrade to the archive's newest version),
# libz.so.1 must be Debian's, and the same commands run again.  The log goes
# to build/deb/check-deb.log (record a run in turbo/results/ by hand).
# Needs root, mmdebstrap and the network (deb.debian.org, or the mirrors in
# DEB_SOURCES, default /etc/apt/sources.list.d/debian.sources); the root is
# made under DEB_ROOT_DIR (default /tmp) and removed at the end.  Not part
# of make check; exit 0 pass, 77 skip, else fail.
set -eu
VERSION=${1:?usage: tools/check/deb.sh VERSION}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
D=$TOP/build/deb
LOGF=$D/check-deb.log
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (mmdebstrap and chroot need root)"
command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed (apt-get install mmdebstrap)"
ls "$D"/zlib1g_*+turbo"$VERSION"-*_*.deb >/dev/null 2>&1 ||
    { echo "no build/deb/zlib1g_*+turbo$VERSION-*.deb: make deb first"; exit 1; }

# everything below also goes to the log: run again through tee
if [ -z "${ZT_DEB_TEE:-}" ]; then
    mkdir -p "$D"
    rcf=$D/check-deb.rc
    echo 1 >"$rcf"
    { ZT_DEB_TEE=1 sh "$0" "$@"; echo $? >"$rcf"; } 2>&1 | tee "$LOGF"
    exit "$(cat "$rcf")"
fi

R=$(mktemp -d "${DEB_ROOT_DIR:-/tmp}/zt-deb-root.XXXXXX")
cleanup() {
    for m in "$R/proc" "$R/dev/pts" "$R/dev"; do
        mountpoint -q "$m" 2>/dev/null && umount -l "$m"
    done
    rm -rf "$R"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
echo "== zlib-turbo $VERSION Debian packages on a fresh Debian 12 root, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "host: $(uname -srm), $(nproc) CPUs; mmdebstrap $(mmdebstrap --version | awk '{print $2}')"
t0=$(date +%s)
lap() { echo "-- $1: $(($(date +%s) - t0)) s since the start"; }

SOURCES=${DEB_SOURCES:-/etc/apt/sources.list.d/debian.sources}
if [ -f "$SOURCES" ]; then set -- "$SOURCES"; else
    set -- "deb http://deb.debian.org/debian bookworm main" \
        "deb http://deb.debian.org/debian bookworm-updates main" \
        "deb http://deb.debian.org/debian-security bookworm-security main"
fi
echo "== mmdebstrap --variant=apt bookworm (sources: $*)"
rmdir "$R"
mmdebstrap --variant=apt --include=python3,libpython3.11-testsuite,git,man-db,gzip,zlib1g-dev,gcc,libc6-dev,pkg-config \
    bookworm "$R" "$@" 2>&1 | grep -v '^I: \(running\|downloading\|extracting\|installing\)' || true
[ -x "$R/usr/bin/python3" ] || { echo "mmdebstrap failed"; exit 1; }
lap "root made"
mount --bind /dev "$R/dev"
mount -t devpts devpts "$R/dev/pts" 2>/dev/null || true
mount -t proc proc "$R/proc"
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
mkdir "$R/debs"
cp "$D"/zlib1g_*.deb "$D"/zlib1g-dev_*.deb "$D"/zturbo_*.deb "$R/debs/"
cp "$TOP/tools/check/ver.c" "$R/debs/ver.c"
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
in_root apt-get update -q >/dev/null || { echo "apt-get update failed in the root"; exit 1; }

# the commands run on each zlib; $1 = turbo or debian
cat >"$R/debs/phase.sh" <<'EOF'
#!/bin/sh
set -eu
WANT=$1 VERSION=$2
ok() { echo "ok: $*"; }
t() { s=$(date +%s); "$@"; echo "   ($(($(date +%s) - s)) s: $*)"; }
cd /root
rm -rf work && mkdir work && cd work
echo "--- which libz.so.1"
ls -l /usr/lib/x86_64-linux-gnu/libz.so.1 /lib/x86_64-linux-gnu/libz.so.1*
dpkg -S /lib/x86_64-linux-gnu/libz.so.1
python3 - "$WANT" "$VERSION" <<'PY'
import ctypes, sys, zlib
want, version = sys.argv[1], sys.argv[2]
lib = ctypes.CDLL("libz.so.1")
lib.zlibVersion.restype = ctypes.c_char_p
maps = [l.split()[-1] for l in open("/proc/self/maps") if "libz.so" in l]
print("python3's zlib module: runtime", zlib.ZLIB_RUNTIME_VERSION, "compiled for", zlib.ZLIB_VERSION)
print("loaded:", sorted(set(maps)))
print("zlibVersion():", lib.zlibVersion().decode())
try:
    f = lib.zlibTurboVersion
    f.restype = ctypes.c_char_p
    turbo = f().decode()
except AttributeError:
    turbo = None
print("zlibTurboVersion():", turbo)
if want == "turbo":
    assert turbo == version and lib.zlibVersion() == b"1.3.2", "libz.so.1 is not zlib-turbo"
    assert all(m.endswith("libz.so.1.3.2") for m in maps), maps
else:
    assert turbo is None and lib.zlibVersion() != b"1.3.2", "libz.so.1 is still zlib-turbo"
PY
ok "libz.so.1 is the $WANT one"
for p in /usr/bin/dpkg /usr/bin/apt-get /usr/bin/git /usr/bin/python3; do
    l=$(ldd "$p" | awk '/libz.so/ {print $3}')
    [ -z "$l" ] || echo "$p loads $(readlink -f "$l")"
done

echo "--- apt-get update, install and use pigz, zip, unzip, then purge them"
t apt-get update -q
t apt-get install -y -q --no-install-recommends pigz zip unzip
seq 1 200000 >numbers
pigz -k -6 numbers && gzip -dc numbers.gz | cmp - numbers && ok "pigz -> gzip -d"
gzip -c -6 numbers | pigz -dc | cmp - numbers && ok "gzip -> pigz -d"
zip -q -9 n.zip numbers && unzip -q -p n.zip numbers | cmp - numbers && ok "zip -> unzip"
python3 -c 'import zipfile,sys; sys.stdout.buffer.write(zipfile.ZipFile("n.zip").read("numbers"))' |
    cmp - numbers && ok "zip -> python zipfile"
t apt-get purge -y -q pigz zip unzip
apt-get check && ok "apt-get check"
dpkg --audit && ok "dpkg --audit"

echo "--- dpkg-deb --build and -x"
mkdir -p pkg/DEBIAN pkg/usr/share/zt-test
printf 'Package: zt-test\nVersion: 1.0\nArchitecture: all\nMaintainer: t <t@invalid>\nDescription: test\n' >pkg/DEBIAN/control
cp numbers pkg/usr/share/zt-test/
cp /usr/share/doc/dpkg/copyright pkg/usr/share/zt-test/
for z in gzip xz; do
    t dpkg-deb -Z$z --build pkg zt-$z.deb >/dev/null
    rm -rf x && dpkg-deb -x zt-$z.deb x && diff -r pkg/usr x/usr && ok "dpkg-deb -Z$z --build, -x"
done
dpkg -i zt-gzip.deb >/dev/null && dpkg -r zt-test >/dev/null && ok "dpkg -i, dpkg -r of it"
apt-get download -q bash >/dev/null && dpkg-deb -x bash_*.deb bx && cmp bx/bin/bash /bin/bash && ok "dpkg-deb -x of bash's .deb gives /bin/bash"

echo "--- python3 -m test test_zlib test_gzip test_zipfile"
t python3 -m test test_zlib test_gzip test_zipfile 2>&1 | tail -n 8

echo "--- git"
git config --global user.name t && git config --global user.email t@invalid
git config --global init.defaultBranch main
git init -q repo && cd repo
cp -r /usr/share/doc/git/RelNotes . 2>/dev/null || cp -r /usr/share/doc/dpkg .
for i in 1 2 3 4 5; do seq $i 5 100000 >f$i; git add -A && git commit -q -m "commit $i"; done
t git gc -q --aggressive && ok "git gc --aggressive"
git fsck --full --strict && ok "git fsck --full --strict"
cd ..
t git clone -q --no-local repo clone && [ "$(git -C clone rev-parse HEAD)" = "$(git -C repo rev-parse HEAD)" ] &&
    git -C clone fsck --full -q && ok "git clone --no-local, same HEAD, fsck"
git -C repo archive --format=tar.gz HEAD | gzip -t && ok "git archive --format=tar.gz"

echo "--- gzipped manual pages"
zcat /usr/share/man/man1/dpkg.1.gz | head -n 3
man -P cat dpkg 2>/dev/null | grep -q 'dpkg - package manager' && ok "man dpkg"
if [ -f /usr/share/man/man1/zturbo.1.gz ]; then
    man -P cat zturbo 2>/dev/null | grep -q zturbo && ok "man zturbo"
    zturbo -n -c numbers >z.gz && gzip -dc z.gz | cmp - numbers && zturbo -dc numbers.gz | cmp - numbers &&
        ok "zturbo -c | gzip -d, gzip | zturbo -d"
fi

echo "--- programs built with cc -lz and pkg-config"
cat >plain.c <<'C'
#include <stdio.h>
#include <string.h>
#include <zlib.h>
int main(void) {
    static unsigned char in[100000], z[120000], out[100000];
    uLongf zn = sizeof(z), on = sizeof(out);
    unsigned i;
    for (i = 0; i < sizeof(in); i++) in[i] = (unsigned char)(i * i % 251 / 7);
    if (compress2(z, &zn, in, sizeof(in), 9) != Z_OK ||
        uncompress(out, &on, z, zn) != Z_OK || on != sizeof(in) ||
        memcmp(in, out, on) != 0) return 1;
    printf("zlib.h %s, zlibVersion() %s: 100000 bytes -> %lu -> back\n",
           ZLIB_VERSION, zlibVersion(), (unsigned long)zn);
    return 0;
}
C
cc -o plain plain.c -lz && ./plain && ok "cc plain.c -lz"
if [ "$WANT" = turbo ]; then
    cc -DVERSION="\"$VERSION\"" -o ver /debs/ver.c $(pkg-config --cflags --libs zlib) &&
        ./ver && ok "cc ver.c \$(pkg-config --libs zlib) runs and sees zlibTurboVersion"
    grep -q ZLIB_TURBO_VERSION /usr/include/zturbo.h && ok "/usr/include/zturbo.h"
else
    [ ! -e /usr/include/zturbo.h ] && ok "zturbo.h is gone with zlib-turbo's zlib1g-dev"
fi
echo "--- all $WANT checks passed"
EOF
chmod +x "$R/debs/phase.sh"

debs=$(cd "$R" && ls debs/*.deb | sed 's|^|./|' | tr '\n' ' ')
echo "== Debian's zlib before: $(in_root dpkg-query -W -f '${Package} ${Version}, ' zlib1g zlib1g-dev)"
echo "== apt-get install $debs"
in_root sh -c "cd / && apt-get install -y $debs" || { echo "FAIL: installing zlib-turbo's packages"; exit 1; }
in_root dpkg-query -W -f '${Package} ${Version} ${Status}\n' zlib1g zlib1g-dev zturbo 2>&1 || true
lap "zlib-turbo installed"
echo "== on zlib-turbo"
in_root sh /debs/phase.sh turbo "$VERSION" || { echo "FAIL: a command on zlib-turbo"; exit 1; }
lap "checks on zlib-turbo done"

echo "== back to Debian's zlib: apt-get install --allow-downgrades zlib1g=V zlib1g-dev=V"
in_root sh -c "v=\$(apt-cache madison zlib1g | awk -F' [|] ' '\$2 !~ /turbo/ {print \$2; exit}') &&
    echo \"the archive's newest zlib1g: \$v\" &&
    apt-get install -y --allow-downgrades zlib1g=\$v zlib1g-dev=\$v" ||
    { echo "FAIL: going back to zlib1g"; exit 1; }
in_root dpkg-query -W -f '${Package} ${Version} ${Status}\n' zlib1g zlib1g-dev zturbo 2>&1 || true
lap "zlib1g back"
echo "== on Debian's zlib"
in_root sh /debs/phase.sh debian "$VERSION" || { echo "FAIL: a command on Debian's zlib"; exit 1; }
lap "checks on Debian's zlib done"
echo "== PASS: zlib-turbo's packages replace zlib1g and zlib1g-dev and give them back"
