#!/bin/sh
# tools/check/fresh.sh -- make and make check on a fresh Debian 12 root, with
# nothing installed but the README's install line: the proof that a new
# machine runs every step (make check-fresh; not part of make check).
#
# Makes a root with mmdebstrap --variant=minbase bookworm (the mirrors of
# FRESH_SOURCES, default /etc/apt/sources.list.d/debian.sources, with
# Acquire::Check-Valid-Until "false" for snapshot mirrors), runs in it,
# through chroot: apt-get update, then the line of README.md that starts
# "On a fresh Debian machine, first:" exactly as written there, then a
# clean clone of this repository's HEAD (git clone --no-local; no
# ../shared beside it, so the default data is used) built with make and
# tested with make check, as root.  The log goes to build/fresh/fresh.log
# (record a run in turbo/results/ by hand); the root is made under
# FRESH_ROOT_DIR (default /tmp) and removed at the end unless FRESH_KEEP=1.
# Fails when make or make check fails, or when make check skipped a step
# or a part of one other than those the README names as needing other
# hardware (FRESH_ALLOW_SKIP: a grep -E pattern of allowed SKIP lines,
# default the CPU-feature parts of the SIMD steps).  Needs root,
# mmdebstrap and the Debian mirror; exit 0 pass, 77 skip, else fail.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
D=$TOP/build/fresh
LOGF=$D/fresh.log
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (mmdebstrap and chroot need root)"
command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed (apt-get install mmdebstrap)"

# everything below also goes to the log: run again through tee
if [ -z "${ZT_FRESH_TEE:-}" ]; then
    mkdir -p "$D"
    rcf=$D/fresh.rc
    echo 1 >"$rcf"
    { ZT_FRESH_TEE=1 sh "$0" "$@"; echo $? >"$rcf"; } 2>&1 | tee "$LOGF"
    exit "$(cat "$rcf")"
fi

LINE=$(sed -n 's/^On a fresh Debian machine, first: `\(apt-get install [^`]*\)`.*/\1/p' "$TOP/README.md")
[ -n "$LINE" ] || { echo "README.md has no line 'On a fresh Debian machine, first: \`apt-get install ...\`'"; exit 1; }
ALLOW=${FRESH_ALLOW_SKIP:-'this CPU lacks'}

R=$(mktemp -d "${FRESH_ROOT_DIR:-/tmp}/zt-fresh-root.XXXXXX")
cleanup() {
    for m in "$R/proc" "$R/dev/pts" "$R/dev"; do
        mountpoint -q "$m" 2>/dev/null && umount -l "$m"
    done
    [ "${FRESH_KEEP:-0}" = 1 ] || rm -rf "$R"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
echo "== make check on a fresh Debian 12 root, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit: $(git -C "$TOP" rev-parse HEAD) ($(git -C "$TOP" log -1 --format=%s))"
echo "host: $(uname -srm), $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); mmdebstrap $(mmdebstrap --version | awk '{print $2}')"
t0=$(date +%s)
lap() { echo "-- $1: $(($(date +%s) - t0)) s since the start"; }

SOURCES=${FRESH_SOURCES:-/etc/apt/sources.list.d/debian.sources}
if [ -f "$SOURCES" ]; then set -- "$SOURCES"; else
    set -- "deb http://deb.debian.org/debian bookworm main" \
        "deb http://deb.debian.org/debian bookworm-updates main" \
        "deb http://deb.debian.org/debian-security bookworm-security main"
fi
echo "== mmdebstrap --variant=minbase bookworm (sources: $*)"
rmdir "$R"
mmdebstrap --variant=minbase --aptopt='Acquire::Check-Valid-Until "false"' \
    bookworm "$R" "$@" 2>&1 | grep -v '^I: \(running\|downloading\|extracting\|installing\)' || true
[ -x "$R/usr/bin/apt-get" ] || { echo "mmdebstrap failed"; exit 1; }
lap "root made"
mount --bind /dev "$R/dev"
mount -t devpts devpts "$R/dev/pts" 2>/dev/null || true
mount -t proc proc "$R/proc"
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
printf 'Dpkg::Use-Pty "0";\nAPT::Sandbox::User "root";\n' >"$R/etc/apt/apt.conf.d/90zt-check"
echo "== apt-get update; the README's line: $LINE"
in_root apt-get update -q >/dev/null || { echo "apt-get update failed in the root"; exit 1; }
# shellcheck disable=SC2086
in_root $LINE -q >"$D/apt.log" 2>&1 || { tail -n 20 "$D/apt.log"; echo "the README's line failed"; exit 1; }
echo "installed: $(in_root dpkg-query -W -f '${Package}\n' | wc -l) packages"
for p in gcc clang cmake python3.11 patch git; do
    echo "  $p: $(in_root sh -c "$p --version 2>/dev/null | head -n 1" || echo missing)"
done
lap "packages installed"

echo "== a clean clone of HEAD, without ../shared"
git clone -q --no-local "$TOP" "$R/root/zlib-turbo"
[ ! -e "$R/root/shared" ] || { echo "the root has a ../shared"; exit 1; }
echo "== make"
in_root sh -c 'cd /root/zlib-turbo && make' >"$D/make.log" 2>&1 ||
    { tail -n 30 "$D/make.log"; echo "make failed"; exit 1; }
tail -n 5 "$D/make.log"
lap "make"
echo "== make check"
r=0
in_root sh -c 'cd /root/zlib-turbo && make check' >"$D/check.log" 2>&1 || r=$?
grep -E '^(PASS|FAIL|SKIP) ' "$D/check.log" || true
tail -n 3 "$D/check.log"
lap "make check"
[ "$r" -eq 0 ] || { echo "make check failed ($r)"; exit 1; }
sum=$(grep -E '^[0-9]+ passed, 0 failed, [0-9]+ skipped$' "$D/check.log" | tail -n 1)
[ -n "$sum" ] || { echo "no summary line in make check's output"; exit 1; }
n=$(echo "$sum" | sed 's/.* \([0-9]*\) skipped$/\1/')
# the SKIP lines: steps ("SKIP  name") and parts ("      | SKIP    part: ...")
grep -E '^(SKIP |      \| SKIP )' "$D/check.log" >"$D/skips.txt" || true
ok=$(grep -cE "$ALLOW" "$D/skips.txt" || true)
if [ "$n" -gt "$ok" ]; then
    echo "make check skipped $n, of which only $ok for other hardware ($ALLOW):"
    grep -Ev "$ALLOW" "$D/skips.txt" || true
    echo "(and GoogleTest skips, if any:)"
    grep -h '^\[  SKIPPED \] [A-Z]' "$R/root/zlib-turbo/build/check/"*.log 2>/dev/null | sort -u | head -n 20 || true
    exit 1
fi
echo "fresh root: make check passed ($sum); every skip is for other hardware"
