#!/bin/sh
# run_cross.sh PRISTINE_TREE TURBO_TREE FILE...
#
# Compresses each FILE at levels 0-9 with the turbo tree built for 32-bit
# x86 (cc -m32 with gcc-multilib, else Debian's i686-linux-gnu-gcc -static,
# which can be installed beside the s390x cross compiler while gcc-multilib
# cannot) and for s390x big-endian (s390x-linux-gnu-gcc -static, run under
# qemu-s390x), and compares the bytes with pristine zlib built for the host
# (x86-64).  A target whose compiler is missing is skipped.  The trees are
# compiled by turbo/harness/pair.sh objs.
# Env: CFLAGS (pair.sh's test flags, -O2), TARGETS ("m32 s390x").
# Exit 1 on any difference.
set -eu
[ $# -ge 3 ] || { sed -n '2,13s/^# \{0,1\}//p' "$0" >&2; exit 2; }
REF=$(cd "$1" && pwd) TUR=$(cd "$2" && pwd)
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
B=${CROSS_BUILD:-$HERE/../../../build/cross}
mkdir -p "$B"
PAIR=$HERE/../../harness/pair.sh
CFLAGS=${CFLAGS:-$(sh "$PAIR" cflags test)}
build() { # NAME CC TREE EXTRA...
    name=$1 cc=$2 tree=$3; shift 3
    o=$B/$name-objs
    rm -rf "$o"
    # shellcheck disable=SC2086
    if CC=$cc CFLAGS="$CFLAGS $*" sh "$PAIR" objs "$tree" "$o" &&
       $cc $CFLAGS "$@" -I"$tree" "$HERE/zlevels.c" "$o"/*.o -o "$B/$name"; then
        rm -rf "$o"
    else
        rm -rf "$o"
        return 1
    fi
}
build host cc "$REF"
rc=0
for t in ${TARGETS:-m32 s390x}; do
    case $t in
        m32) build m32 cc "$TUR" -m32 2>/dev/null ||
                 { command -v i686-linux-gnu-gcc >/dev/null &&
                   build m32 i686-linux-gnu-gcc "$TUR" -static; } ||
                 { echo "run_cross: m32: no compiler, skipped"; continue; }
             # a kernel without 32-bit support runs it under qemu-i386
             run=
             "$B/m32" /dev/null >/dev/null 2>&1 ||
                 { command -v qemu-i386 >/dev/null && run=qemu-i386; } ;;
        s390x) command -v s390x-linux-gnu-gcc >/dev/null && command -v qemu-s390x >/dev/null ||
                   { echo "run_cross: s390x: no cross compiler or qemu, skipped"; continue; }
               build s390x s390x-linux-gnu-gcc "$TUR" -static
               run=qemu-s390x ;;
    esac
    n=0 bad=0
    for f in "$@"; do
        "$B/host" "$f" >"$B/ref.out"
        $run "$B/$t" "$f" >"$B/tur.out"
        if cmp -s "$B/ref.out" "$B/tur.out"; then n=$((n + 1))
        else echo "run_cross: $t: DIFFERENT: $f"; bad=$((bad + 1)); fi
    done
    echo "run_cross: $t ($CFLAGS): $n files identical at levels 0-9, $bad different"
    [ $bad -eq 0 ] || rc=1
done
exit $rc
