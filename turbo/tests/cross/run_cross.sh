#!/bin/sh
# run_cross.sh PRISTINE_TREE TURBO_TREE FILE...
#
# Checks zlib-turbo built for other targets, each in three ways:
#   levels   compresses each FILE at levels 0-9 with the turbo tree built
#            for the target (zlevels.c) and compares the bytes with pristine
#            zlib built for the host (x86-64);
#   optimal  compresses each FILE at levels 10-12 in several ways (zoptimal.c:
#            compress2(), raw with sliced calls, flushes and deflateParams(),
#            gzip with the other strategies, a dictionary, 3 threads) with
#            the turbo tree built for the target and compares the bytes with
#            the same program and tree built for the host (x86-64): these
#            levels are not zlib's bytes, but the same on every machine;
#   threads  builds zthreads.c, the lockstep engine of
#            turbo/tests/fuzz/fuzz_deflate_threads.c, with pristine zlib and
#            zlib-turbo both built for the target and linked side by side
#            (turbo/harness/pair.sh; zlib-turbo with -DZT_SEG_BITS=12, so
#            that these files cross many segments, and -DZT_STATS, to count
#            what the threads did), and runs it on the FILEs and on data of
#            its own: threaded deflate against pristine zlib at levels 4-9,
#            every deflate() call compared.  It fails too if the threads
#            never took up a job.
# Targets (TARGETS, default "m32 s390x"):
#   m32    32-bit x86: cc -m32 with gcc-multilib, else Debian's
#          i686-linux-gnu-gcc -static (which can be installed beside the
#          s390x cross compiler while gcc-multilib cannot), run under
#          qemu-i386 where the kernel cannot run it
#   s390x  big-endian: s390x-linux-gnu-gcc -static under qemu-s390x
#   win64  64-bit Windows (Windows threads): x86_64-w64-mingw32-gcc -static
#          under wine (WINEPREFIX build/cross/wine, made at the first run)
# A target whose compiler or emulator is missing, or where wine cannot run
# a program, is skipped with the reason.  The trees are compiled by
# turbo/harness/pair.sh objs.
# Env: CFLAGS (pair.sh's test flags, -O2), TARGETS, ZTHREADS (zthreads'
# options; default "-t 2-4", win64 "-t 2-8"), CROSS_BUILD (build/cross).
# Exit 1 on any difference, 77 when every target was skipped, else 0.
set -eu
[ $# -ge 3 ] || { sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" | sed '$d' >&2; exit 2; }
REF=$(cd "$1" && pwd) TUR=$(cd "$2" && pwd)
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
B=${CROSS_BUILD:-$HERE/../../../build/cross}
mkdir -p "$B"
B=$(cd "$B" && pwd)
PAIR=$HERE/../../harness/pair.sh
ENGINE=$HERE/../fuzz/fuzz_deflate_threads.c
CFLAGS=${CFLAGS:-$(sh "$PAIR" cflags test)}
build() { # NAME CC TREE EXTRA...: $B/NAME (zlevels), and $B/NAME-opt
    # (zoptimal) where the tree is zlib-turbo's (it has zturbo.h)
    name=$1 cc=$2 tree=$3; shift 3
    o=$B/$name-objs
    rm -rf "$o" "$B/$name-opt" "$B/$name-opt.exe"
    # shellcheck disable=SC2086
    if CC=$cc CFLAGS="$CFLAGS $*" sh "$PAIR" objs "$tree" "$o" &&
       $cc $CFLAGS "$@" -I"$tree" "$HERE/zlevels.c" "$o"/*.o -o "$B/$name" &&
       { [ ! -f "$tree/zturbo.h" ] ||
         $cc $CFLAGS "$@" -I"$tree" "$HERE/zoptimal.c" "$o"/*.o -o "$B/$name-opt" $LIBS; }; then
        rm -rf "$o"
    else
        rm -rf "$o"
        return 1
    fi
}
# pair NAME CC TOOLS FLAGS LINK-ARGS: zthreads for a target, into
# $B/NAME-zthreads/zthreads; TOOLS is the binutils prefix ("" for the host's)
pair() {
    o=$B/$1-zthreads
    rm -rf "$o"
    # shellcheck disable=SC2086
    CC=$2 NM=${3}nm OBJCOPY=${3}objcopy LD=${3}ld CFLAGS="$CFLAGS $4" \
        LDFLAGS="$5" TUR_CFLAGS="-DZT_SEG_BITS=12 -DZT_STATS" ZINC=$REF \
        sh "$PAIR" build "$o" zthreads "$REF" "$TUR" "$HERE/zthreads.c" \
        "$ENGINE"
}
# threads NAME EXE...: run zthreads (the command EXE...) on the files;
# its stderr (the ZT_STATS lines) into $B/NAME-zthreads/stderr
threads() {
    name=$1; shift
    d=$B/$name-zthreads
    # shellcheck disable=SC2086
    if (cd "$d" && "$@" ${ZTHREADS:-$topt} $files) >"$d/stdout" 2>"$d/stderr"; then
        s=$(awk '/^zlib-turbo threads:/ { s += $3; t += $5; r += $11 }
                 END { printf "%d %d %d", s, t, r }' "$d/stderr")
        set -- $s
        if [ "$2" -eq 0 ]; then
            echo "run_cross: $name: threads: FAILED: no job was ever taken up" \
                 "($1 sessions; $d/stderr)"
            return 1
        fi
        echo "run_cross: $name: threads ($CFLAGS): $(sed 's/^zthreads: //' "$d/stdout");" \
             "the threads ran $1 sessions, took up $2 jobs as planned and" \
             "ran $3 again"
    else
        grep -v '^zlib-turbo threads:' "$d/stderr" | tail -n 5
        echo "run_cross: $name: threads: FAILED (see $d/stderr;" \
             "the input is $d/zthreads-failed.bin)"
        return 1
    fi
}
build host cc "$REF"
# levels 10-12: zlib-turbo on the host writes the bytes to compare with
LIBS=-pthread
build host-tur cc "$TUR" ||
    { echo "run_cross: zlib-turbo does not build for the host"; exit 1; }
# the files zthreads reads (it reads the first 300 KiB of each)
files=
for f in "$@"; do files="$files $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"; done
rc=0 ran=0
for t in ${TARGETS:-m32 s390x}; do
    topt="-t 2-4"
    case $t in
        m32) # cc -m32 where it can link a program, else i686-linux-gnu-gcc
             if printf 'int main(void) { return 0; }\n' >"$B/m32.c" &&
                cc -m32 "$B/m32.c" -o "$B/m32-probe" 2>/dev/null; then
                 tcc=cc tflags=-m32 tlink='' tools='' lflags=-m32
             elif command -v i686-linux-gnu-gcc >/dev/null; then
                 tcc=i686-linux-gnu-gcc tflags='' tlink="-static -pthread"
                 tools=i686-linux-gnu- lflags=-static
             else
                 echo "run_cross: m32: no compiler (gcc-multilib, or gcc-i686-linux-gnu libc6-dev-i386-cross), skipped"
                 continue
             fi
             LIBS=$tlink
             build m32 "$tcc" "$TUR" "$lflags" ||
                 { echo "run_cross: m32: FAILED: zlib-turbo does not build"; rc=1; continue; }
             # a kernel without 32-bit support runs it under qemu-i386
             run=
             if ! "$B/m32" /dev/null >/dev/null 2>&1; then
                 command -v qemu-i386 >/dev/null || { echo "run_cross: m32:" \
                     "this kernel cannot run 32-bit programs and there is" \
                     "no qemu-i386 (qemu-user), skipped"; continue; }
                 run=qemu-i386
             fi ;;
        s390x) command -v s390x-linux-gnu-gcc >/dev/null && command -v qemu-s390x >/dev/null ||
                   { echo "run_cross: s390x: no cross compiler or qemu (gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user), skipped"; continue; }
               LIBS=-pthread
               build s390x s390x-linux-gnu-gcc "$TUR" -static ||
                   { echo "run_cross: s390x: FAILED: zlib-turbo does not build"; rc=1; continue; }
               tcc=s390x-linux-gnu-gcc tflags='' tlink="-static -pthread"
               tools=s390x-linux-gnu- run=qemu-s390x ;;
        win64) command -v x86_64-w64-mingw32-gcc >/dev/null ||
                   { echo "run_cross: win64: no x86_64-w64-mingw32-gcc (apt-get install gcc-mingw-w64-x86-64), skipped"; continue; }
               w=$(command -v wine64 || command -v wine || true)
               [ -n "$w" ] ||
                   { echo "run_cross: win64: no wine (apt-get install wine64), skipped"; continue; }
               export WINEPREFIX="$B/wine" WINEDEBUG=-all
               rm -f "$B/win64" "$B/win64.exe"
               LIBS=
               build win64 x86_64-w64-mingw32-gcc "$TUR" -static ||
                   { echo "run_cross: win64: FAILED: zlib-turbo does not build"; rc=1; continue; }
               [ -f "$B/win64.exe" ] || mv "$B/win64" "$B/win64.exe"
               [ -f "$B/win64-opt.exe" ] || [ ! -f "$B/win64-opt" ] ||
                   mv "$B/win64-opt" "$B/win64-opt.exe"
               # the first run makes the prefix (a minute); a wine that
               # cannot run programs here is a skip, not a failure
               if ! timeout 600 "$w" "$B/win64.exe" "$1" >"$B/wine.log" 2>&1 &&
                  ! timeout 600 "$w" "$B/win64.exe" "$1" >"$B/wine.log" 2>&1; then
                   echo "run_cross: win64: wine cannot run a program here ($(tail -n 1 "$B/wine.log")), skipped"
                   continue
               fi
               # -mcmodel=small: no .refptr.NAME helpers for data, which
               # mkzobj.sh's renaming would break
               tcc=x86_64-w64-mingw32-gcc tflags=-mcmodel=small tlink=-static
               tools=x86_64-w64-mingw32- run=$w topt="-t 2-8" ;;
        *) echo "run_cross: no such target: $t" >&2; exit 2 ;;
    esac
    ran=$((ran + 1))
    n=0 bad=0
    tbin=$B/$t
    [ ! -f "$tbin.exe" ] || tbin=$tbin.exe
    for f in "$@"; do
        "$B/host" "$f" >"$B/ref.out"
        $run "$tbin" "$f" >"$B/tur.out"
        if cmp -s "$B/ref.out" "$B/tur.out"; then n=$((n + 1))
        else echo "run_cross: $t: DIFFERENT: $f"; bad=$((bad + 1)); fi
    done
    echo "run_cross: $t ($CFLAGS): $n files identical at levels 0-9, $bad different"
    [ $bad -eq 0 ] || rc=1
    # levels 10-12: the target's zlib-turbo against the host's
    obin=$B/$t-opt
    [ ! -f "$obin.exe" ] || obin=$obin.exe
    n=0 bad=0
    for f in "$@"; do
        if ! "$B/host-tur-opt" "$f" >"$B/ref-opt.out"; then
            echo "run_cross: host: FAILED: zoptimal $f (a call at levels 10-12 failed)"
            bad=$((bad + 1))
        elif ! $run "$obin" "$f" >"$B/tur-opt.out"; then
            echo "run_cross: $t: FAILED: zoptimal $f (a call at levels 10-12 failed)"
            bad=$((bad + 1))
        elif cmp -s "$B/ref-opt.out" "$B/tur-opt.out"; then
            n=$((n + 1))
        else
            echo "run_cross: $t: DIFFERENT at levels 10-12: $f ($(cmp "$B/ref-opt.out" "$B/tur-opt.out" 2>&1 | head -n 1))"
            bad=$((bad + 1))
        fi
    done
    echo "run_cross: $t ($CFLAGS): $n files identical at levels 10-12 (to zlib-turbo on the host), $bad different"
    [ $bad -eq 0 ] || rc=1
    pair "$t" "$tcc" "$tools" "$tflags" "$tlink" ||
        { echo "run_cross: $t: FAILED: zthreads does not build"; rc=1; continue; }
    exe=$B/$t-zthreads/zthreads
    [ ! -f "$exe.exe" ] || exe=$exe.exe
    # shellcheck disable=SC2086
    threads "$t" $run "$exe" || rc=1
done
[ $ran -gt 0 ] || [ $rc -ne 0 ] || exit 77
exit $rc
