#!/bin/sh
# run_cross.sh PRISTINE_TREE TURBO_TREE FILE...
#
# Checks zlib-turbo built for other targets (cross-compiled, run under
# qemu-user), on each target in six ways (CHECKS, default all six):
#   levels   compresses each FILE at levels 0-9 with the turbo tree built
#            for the target (zlevels.c) and compares the bytes with pristine
#            zlib built for the host;
#   optimal  compresses each FILE at levels 10-12 in several ways (zoptimal.c:
#            compress2(), raw with sliced calls, flushes and deflateParams(),
#            gzip with the other strategies, a dictionary, 3 threads) with
#            the turbo tree built for the target and compares the bytes with
#            the same program and tree built for the host: these levels are
#            not zlib's bytes, but the same on every machine;
#   threads  builds zthreads.c, the lockstep engine of
#            turbo/tests/fuzz/fuzz_deflate_threads.c, with pristine zlib and
#            zlib-turbo both built for the target and linked side by side
#            (turbo/harness/pair.sh; zlib-turbo with -DZT_SEG_BITS=12, so
#            that these files cross many segments, and -DZT_STATS, to count
#            what the threads did), and runs it on the FILEs and on data of
#            its own: threaded deflate against pristine zlib at levels 4-9,
#            every deflate() call compared.  It fails too if the threads
#            never took up a job;
#   inflate  zdamaged.c (the engine of turbo/tests/fuzz/fuzz_inflate.c),
#            pristine zlib and zlib-turbo built for the target side by side:
#            streams made from pieces of the FILEs and damaged (bit flips,
#            bytes overwritten, inserted, deleted, cut short, block headers,
#            wrapper) from a seed, inflate() with random slicing and
#            inflateBack() compared call by call (return code, msg, counters,
#            adler, output); README's intentional difference 1 is allowed
#            exactly as the engine says; then the fuzzer's regression inputs
#            (turbo/tests/fuzz/regressions/inflate-*.bin);
#   sums     zsums.c, side by side the same way: adler32(), crc32(), their
#            _z and _combine functions on every length 0-1100 at 16
#            alignments, long lengths, pieces; where zlib-turbo's 8-byte
#            Adler-32 (adler32-words, ZT_WORD64 in zport.h) is off by
#            default (32-bit targets), again with adler32.c compiled with
#            -DZT_WORD64;
#   ztest    zlib's own `make test`: test/example.c and test/minigzip.c of
#            the turbo tree built for the target; example must print the
#            lines pristine zlib's example prints on the host, "hello world"
#            must come back through two minigzips, and each FILE must come
#            back through minigzip at -1, -6, -9, -f, -h, -r with the gzip
#            bytes of pristine zlib's minigzip on the host (on Windows but
#            for the OS byte) and once through minigzip FILE, minigzip -d
#            FILE.gz.
# Targets (TARGETS, default "x86-64 m32 arm64 armel ppc64le s390x riscv64"),
# each statically linked with Debian's cross compiler (gcc-TRIPLE) and run
# under qemu-user, except on the host itself:
#   x86-64   the host's cc where it is x86-64 (no emulator), else
#            x86_64-linux-gnu-gcc under qemu-x86_64
#   m32      32-bit x86 (i386): cc -m32 with gcc-multilib, else Debian's
#            i686-linux-gnu-gcc -static (which can be installed beside the
#            other cross compilers while gcc-multilib cannot), run under
#            qemu-i386 where the kernel cannot run it; i386 is another name
#   arm64    aarch64-linux-gnu-gcc, qemu-aarch64
#   armel    arm-linux-gnueabi-gcc -march=armv5te -marm (ARMv5: no unaligned
#            word access; the compiler must not define
#            __ARM_FEATURE_UNALIGNED), qemu-arm -cpu arm926
#   ppc64le  powerpc64le-linux-gnu-gcc, qemu-ppc64le
#   s390x    big-endian: s390x-linux-gnu-gcc, qemu-s390x
#   riscv64  riscv64-linux-gnu-gcc, qemu-riscv64
#   win64    64-bit Windows (Windows threads): x86_64-w64-mingw32-gcc -static
#            under wine (WINEPREFIX build/cross/wine, made at the first run);
#            only when named
# A target whose compiler or emulator is missing, that cannot link or run a
# program, or where wine cannot run a program, is skipped with the reason.
# The trees are compiled by turbo/harness/pair.sh objs; the host's
# references are linked with PRISTINE_TREE/libz.a and TURBO_TREE/libz.a
# where they are built, else compiled the same way.
# Env: CFLAGS (pair.sh's test flags, -O2), TARGETS, CHECKS, ZTHREADS
# (zthreads' options; default "-t 2-4", win64 "-t 2-8"), ZDAMAGED
# (zdamaged's options; default "-n 2000"), ZSUMS (zsums' options; -q for
# fewer lengths), CROSS_BUILD (build/cross).
# Prints one line per check and target, then a summary line per target.
# Exit 1 on any difference or failure, 77 when every target was skipped,
# else 0.
# shellcheck disable=SC2086,SC2317
set -eu
[ $# -ge 3 ] || { sed -n '2,/^# shellcheck/s/^# \{0,1\}//p' "$0" | sed '$d' >&2; exit 2; }
REF=$(cd "$1" && pwd) TUR=$(cd "$2" && pwd)
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
B=${CROSS_BUILD:-$HERE/../../../build/cross}
mkdir -p "$B"
B=$(cd "$B" && pwd)
PAIR=$HERE/../../harness/pair.sh
FUZZ=$HERE/../fuzz
CFLAGS=${CFLAGS:-$(sh "$PAIR" cflags test)}
CHECKS=${CHECKS:-levels optimal threads inflate sums ztest}
ZDAMAGED=${ZDAMAGED:--n 2000}
ZSUMS=${ZSUMS:-}
for c in $CHECKS; do
    case $c in levels|optimal|threads|inflate|sums|ztest) ;;
        *) echo "run_cross: no such check: $c" >&2; exit 2 ;; esac
done
has() { case " $CHECKS " in *" $1 "*) return 0 ;; esac; return 1; }
now() { date +%s; }

# the files, with absolute names (the programs run in their folders)
files=
for f in "$@"; do files="$files $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"; done

# --- the host's references ------------------------------------------------
# hostlib TREE NAME: TREE's libz.a, else TREE compiled into $B/host/NAME
hostlib() {
    if [ -f "$1/libz.a" ]; then
        echo "$1/libz.a"
    else
        CC=cc CFLAGS="$CFLAGS" sh "$PAIR" objs "$1" "$B/host/$2" >&2
        echo "$B/host/$2/*.o"
    fi
}
# hostrefs: zlevels (pristine), zoptimal (zlib-turbo), example and
# minigzip (pristine) for the host, in $B/host
hostrefs() {
    rm -rf "$B/host"
    mkdir -p "$B/host"
    refz=$(hostlib "$REF" ref-objs) &&
    cc $CFLAGS -I"$REF" "$HERE/zlevels.c" $refz -o "$B/host/zlevels" || return 1
    if has optimal; then
        turz=$(hostlib "$TUR" tur-objs) &&
        cc $CFLAGS -I"$TUR" "$HERE/zoptimal.c" $turz -o "$B/host/zoptimal" \
            -pthread || return 1
    fi
    if has ztest; then
        cc $CFLAGS -I"$REF" "$REF/test/example.c" $refz -o "$B/host/example" &&
        cc $CFLAGS -I"$REF" "$REF/test/minigzip.c" $refz \
            -o "$B/host/minigzip" &&
        (cd "$B/host" && rm -f tmpst && ./example tmpst >example.all) &&
        sed 1d "$B/host/example.all" >"$B/host/example.out" || return 1
    fi
}
hostrefs || { echo "run_cross: the host's references do not build"; exit 1; }

# --- targets -----------------------------------------------------------------
# target T: sets tcc (compiler), tflags (compile and link flags), tlink
# (link flags), tools (binutils prefix, "" for the host's), run (emulator,
# "" for none) and x (".exe" or ""), or says why T is skipped (return 1)
target() {
    tflags='' tlink='-pthread' tools='' run='' x=''
    case $1 in
        x86-64)
            case $(cc -dumpmachine 2>/dev/null) in
                x86_64-*) tcc=cc ;;
                *) cross x86_64-linux-gnu qemu-x86_64 || return 1 ;;
            esac ;;
        m32|i386)
            # cc -m32 where it can link a program, else i686-linux-gnu-gcc
            if printf 'int main(void) { return 0; }\n' >"$B/m32.c" &&
               cc -m32 "$B/m32.c" -o "$B/m32-probe" 2>/dev/null; then
                tcc=cc tflags=-m32
            elif command -v i686-linux-gnu-gcc >/dev/null; then
                tcc=i686-linux-gnu-gcc tlink="-static -pthread"
                tools=i686-linux-gnu-
            else
                echo "run_cross: $1: no compiler (gcc-multilib, or gcc-i686-linux-gnu libc6-dev-i386-cross), skipped"
                return 1
            fi
            # a kernel without 32-bit support runs it under qemu-i386
            $tcc $tflags "$B/m32.c" -o "$B/m32-probe" $tlink
            if ! "$B/m32-probe" 2>/dev/null; then
                command -v qemu-i386 >/dev/null || { echo "run_cross: $1:" \
                    "this kernel cannot run 32-bit programs and there is" \
                    "no qemu-i386 (qemu-user), skipped"; return 1; }
                run=qemu-i386
            fi ;;
        arm64) cross aarch64-linux-gnu qemu-aarch64 || return 1 ;;
        armel) cross arm-linux-gnueabi "qemu-arm -cpu arm926" \
                   -march=armv5te -marm || return 1
               if $tcc $tflags -dM -E - </dev/null | grep -q __ARM_FEATURE_UNALIGNED; then
                   echo "run_cross: armel: $tcc $tflags allows unaligned access (__ARM_FEATURE_UNALIGNED): not ARMv5"
                   return 2
               fi ;;
        ppc64le) cross powerpc64le-linux-gnu qemu-ppc64le || return 1 ;;
        s390x) cross s390x-linux-gnu qemu-s390x || return 1 ;;
        riscv64) cross riscv64-linux-gnu qemu-riscv64 || return 1 ;;
        win64) command -v x86_64-w64-mingw32-gcc >/dev/null ||
                   { echo "run_cross: win64: no x86_64-w64-mingw32-gcc (apt-get install gcc-mingw-w64-x86-64), skipped"; return 1; }
               w=$(command -v wine64 || command -v wine || true)
               [ -n "$w" ] ||
                   { echo "run_cross: win64: no wine (apt-get install wine64), skipped"; return 1; }
               export WINEPREFIX="$B/wine" WINEDEBUG=-all
               # -mcmodel=small: no .refptr.NAME helpers for data, which
               # mkzobj.sh's renaming would break
               tcc=x86_64-w64-mingw32-gcc tflags=-mcmodel=small tlink=-static
               tools=x86_64-w64-mingw32- run=$w x=.exe
               printf 'int main(void) { return 0; }\n' >"$B/w.c"
               $tcc "$B/w.c" -o "$B/win64-probe.exe" $tlink
               # the first run makes the prefix (a minute); a wine that
               # cannot run programs here is a skip, not a failure
               if ! timeout 600 "$w" "$B/win64-probe.exe" >"$B/wine.log" 2>&1 &&
                  ! timeout 600 "$w" "$B/win64-probe.exe" >"$B/wine.log" 2>&1; then
                   echo "run_cross: win64: wine cannot run a program here ($(tail -n 1 "$B/wine.log")), skipped"
                   return 1
               fi ;;
        *) echo "run_cross: no such target: $1" >&2; exit 2 ;;
    esac
}
# cross TRIPLE EMULATOR [FLAGS...]: a Linux target of Debian's cross
# compilers, statically linked, run under EMULATOR
cross() {
    triple=$1 emu=$2
    shift 2
    missing=''
    command -v "$triple-gcc" >/dev/null || missing=" $triple-gcc"
    command -v "${emu%% *}" >/dev/null || missing="$missing ${emu%% *}"
    if [ -n "$missing" ]; then
        echo "run_cross: $t: no$missing (apt-get install gcc-$triple qemu-user), skipped"
        return 1
    fi
    tcc=$triple-gcc tflags="$*" tlink="-static -pthread" tools=$triple- run=$emu
    printf 'int main(void) { return 0; }\n' >"$B/probe.c"
    if ! $tcc $tflags "$B/probe.c" -o "$B/$t-probe" $tlink 2>"$B/probe.log"; then
        echo "run_cross: $t: $tcc cannot link a static program ($(tail -n 1 "$B/probe.log"); apt-get install libc6-dev-*-cross), skipped"
        return 1
    fi
    if ! $run "$B/$t-probe" 2>"$B/probe.log"; then
        echo "run_cross: $t: $run cannot run a program ($(tail -n 1 "$B/probe.log")), skipped"
        return 1
    fi
}

# say CHECK MESSAGE: one line for the check just run, with its seconds
say() { echo "run_cross: $t: $1 ($(($(now) - s))s): $2"; }

# --- the checks on one target ------------------------------------------------
# levels: zlevels on each file, against the host's pristine zlib
levels() {
    n=0 bad=0
    for f in $files; do
        "$B/host/zlevels" "$f" >"$D/ref.out"
        $run "$D/zlevels$x" "$f" >"$D/tur.out" || true
        if cmp -s "$D/ref.out" "$D/tur.out"; then n=$((n + 1))
        else echo "run_cross: $t: DIFFERENT at levels 0-9: $f ($(cmp "$D/ref.out" "$D/tur.out" 2>&1 | head -n 1))"; bad=$((bad + 1)); fi
    done
    say levels "$n files identical at levels 0-9 (to pristine zlib on the host), $bad different"
    sum="$sum levels $n/$((n + bad))"
    [ $bad -eq 0 ]
}

# optimal: zoptimal on each file, against zlib-turbo on the host
optimal() {
    n=0 bad=0
    for f in $files; do
        if ! "$B/host/zoptimal" "$f" >"$D/ref-opt.out"; then
            echo "run_cross: host: FAILED: zoptimal $f (a call at levels 10-12 failed)"
            bad=$((bad + 1))
        elif ! $run "$D/zoptimal$x" "$f" >"$D/tur-opt.out"; then
            echo "run_cross: $t: FAILED: zoptimal $f (a call at levels 10-12 failed)"
            bad=$((bad + 1))
        elif cmp -s "$D/ref-opt.out" "$D/tur-opt.out"; then
            n=$((n + 1))
        else
            echo "run_cross: $t: DIFFERENT at levels 10-12: $f ($(cmp "$D/ref-opt.out" "$D/tur-opt.out" 2>&1 | head -n 1))"
            bad=$((bad + 1))
        fi
    done
    say optimal "$n files identical at levels 10-12 (to zlib-turbo on the host), $bad different"
    sum="$sum optimal $n/$((n + bad))"
    [ $bad -eq 0 ]
}

# threads: zthreads (its own pair: zlib-turbo with small segments) on the
# files; its stderr (the ZT_STATS lines) into $D/zthreads/stderr
threads() {
    o=$D/zthreads
    rm -rf "$o"
    if ! CC=$tcc NM=${tools}nm OBJCOPY=${tools}objcopy LD=${tools}ld \
         CFLAGS="$CFLAGS $tflags" LDFLAGS="$tlink" \
         TUR_CFLAGS="-DZT_SEG_BITS=12 -DZT_STATS" ZINC=$REF \
         sh "$PAIR" build "$o" zthreads$x "$REF" "$TUR" "$HERE/zthreads.c" \
         "$FUZZ/fuzz_deflate_threads.c" >"$o.log" 2>&1; then
        tail -n 5 "$o.log"
        say threads "FAILED: zthreads does not build ($o.log)"
        sum="$sum threads FAILED"
        return 1
    fi
    if (cd "$o" && $run "./zthreads$x" ${ZTHREADS:-$topt} $files) >"$o/stdout" 2>"$o/stderr"; then
        # shellcheck disable=SC2046
        set -- $(awk '/^zlib-turbo threads:/ { s += $3; t += $5; r += $11 }
                      END { printf "%d %d %d", s, t, r }' "$o/stderr")
        if [ "$2" -eq 0 ]; then
            say threads "FAILED: no job was ever taken up ($1 sessions; $o/stderr)"
            sum="$sum threads FAILED"
            return 1
        fi
        say threads "$(sed 's/^zthreads: //' "$o/stdout"); the threads ran $1 sessions, took up $2 jobs as planned and ran $3 again"
        sum="$sum threads $(awk '{ print $2 }' "$o/stdout")"
    else
        grep -v '^zlib-turbo threads:' "$o/stderr" | tail -n 5
        say threads "FAILED (see $o/stderr; the input is $o/zthreads-failed.bin)"
        sum="$sum threads FAILED"
        return 1
    fi
}

# pair: pristine zlib and zlib-turbo for the target, renamed side by side,
# from the objects compiled for levels (no second compilation): $D/pair
pairlib() { # SIDE OBJDIR OUTDIR: OBJDIR's objects as one renamed library
    rm -f "$2/libz.a"
    ${tools}ar rc "$2/libz.a" "$2"/*.o
    CC=$tcc NM=${tools}nm OBJCOPY=${tools}objcopy LD=${tools}ld \
        CFLAGS="$CFLAGS $tflags" sh "$PAIR" lib "$1" "$2/libz.a" "$3/z$1.o"
}
pair() {
    rm -rf "$D/pair"
    mkdir -p "$D/pair"
    {
        pairlib ref "$D/ref" "$D/pair" &&
        pairlib tur "$D/tur" "$D/pair" &&
        for sd in ref tur; do
            CC=$tcc CFLAGS="$CFLAGS $tflags" ZINC=$REF \
                sh "$PAIR" zapi $sd "$D/pair/zapi_$sd.o" || return 1
        done
    } >"$D/pair.log" 2>&1
}
# plink DIR PROG DRIVER...: link a driver with the pair in DIR
plink() {
    d=$1 p=$2
    shift 2
    CC=$tcc CFLAGS="$CFLAGS $tflags" LDFLAGS="$tlink" ZINC=$REF \
        sh "$PAIR" link "$d" "$p$x" "$@" >>"$D/pair.log" 2>&1
}

# inflate: zdamaged on the files
inflate() {
    if ! plink "$D/pair" zdamaged "$HERE/zdamaged.c" "$FUZZ/fuzz_inflate.c"; then
        tail -n 5 "$D/pair.log"
        say inflate "FAILED: zdamaged does not build ($D/pair.log)"
        sum="$sum inflate FAILED"
        return 1
    fi
    if (cd "$D/pair" && $run "./zdamaged$x" $ZDAMAGED $files) >"$D/pair/zdamaged.out" 2>&1; then
        say inflate "$(sed 's/^zdamaged: //' "$D/pair/zdamaged.out")"
        sum="$sum inflate $(awk '{ print $2 }' "$D/pair/zdamaged.out")"
    else
        tail -n 5 "$D/pair/zdamaged.out"
        say inflate "FAILED (the input is $D/pair/zdamaged-failed.bin: $run $D/pair/zdamaged$x -i FILE replays it)"
        sum="$sum inflate FAILED"
        return 1
    fi
    # the inflate fuzzer's regression inputs, as they are
    s=$(now)
    set -- "$FUZZ"/regressions/inflate-*.bin
    [ -f "$1" ] || return 0
    if (cd "$D/pair" && $run "./zdamaged$x" -i "$@") >"$D/pair/regressions.out" 2>&1; then
        say inflate "the inflate fuzzer's regression inputs: $(sed 's/^zdamaged: //' "$D/pair/regressions.out")"
        sum="$sum+$#"
    else
        tail -n 5 "$D/pair/regressions.out"
        say inflate "FAILED on a regression input ($D/pair/regressions.out)"
        sum="$sum inflate-regressions FAILED"
        return 1
    fi
}

# sums: zsums, and again with the 8-byte Adler-32 forced where it is off
sums() {
    if ! plink "$D/pair" zsums "$HERE/zsums.c"; then
        tail -n 5 "$D/pair.log"
        say sums "FAILED: zsums does not build ($D/pair.log)"
        sum="$sum sums FAILED"
        return 1
    fi
    if ! $run "$D/pair/zsums$x" $ZSUMS >"$D/pair/zsums.out" 2>&1; then
        tail -n 5 "$D/pair/zsums.out"
        say sums "FAILED ($D/pair/zsums.out)"
        sum="$sum sums FAILED"
        return 1
    fi
    say sums "$(sed 's/^zsums: //' "$D/pair/zsums.out")"
    sum="$sum sums $(awk '{ print $2 }' "$D/pair/zsums.out")"
    # is adler32-words on by default?  zport.h decides
    if printf '#include "zport.h"\n#ifndef ZT_WORD64\n#error off\n#endif\n' |
       $tcc $CFLAGS $tflags -I"$TUR" -x c -c - -o "$D/word64.o" 2>/dev/null; then
        return 0
    fi
    s=$(now)
    rm -rf "$D/tur64" "$D/pair64"
    mkdir -p "$D/tur64" "$D/pair64"
    cp "$D/tur"/*.o "$D/tur64/"
    cp "$D/pair/zref.o" "$D/pair/zapi_ref.o" "$D/pair/zapi_tur.o" "$D/pair64/"
    if ! { CC=$tcc CFLAGS="$CFLAGS $tflags -DZT_WORD64" \
               sh "$PAIR" objs "$TUR" "$D/tur64" adler32 &&
           ! cmp -s "$D/tur/adler32.o" "$D/tur64/adler32.o" &&
           pairlib tur "$D/tur64" "$D/pair64" &&
           plink "$D/pair64" zsums "$HERE/zsums.c"; } >>"$D/pair.log" 2>&1; then
        tail -n 5 "$D/pair.log"
        say sums "FAILED: zsums with -DZT_WORD64 does not build, or its adler32.o is the default one ($D/pair.log)"
        sum="$sum sums-word64 FAILED"
        return 1
    fi
    if ! $run "$D/pair64/zsums$x" $ZSUMS >"$D/pair64/zsums.out" 2>&1; then
        tail -n 5 "$D/pair64/zsums.out"
        say sums "FAILED with the 8-byte Adler-32 forced on ($D/pair64/zsums.out)"
        sum="$sum sums-word64 FAILED"
        return 1
    fi
    say sums "8-byte Adler-32 forced on (adler32.c -DZT_WORD64): $(sed 's/^zsums: //' "$D/pair64/zsums.out")"
    sum="$sum sums-word64 $(awk '{ print $2 }' "$D/pair64/zsums.out")"
}

# gzsame REF.gz TUR.gz: the same gzip bytes, but for the OS byte (the
# tenth) on Windows, where zlib writes 10 (OS_CODE) instead of 3
gzsame() {
    cmp -s "$1" "$2" && return 0
    [ "$x" = .exe ] &&
        [ "$(cmp -l "$1" "$2" 2>&1 | awk '{ print $1, $2, $3 }')" = "10 3 12" ]
}

# ztest: zlib's example and minigzip of the turbo tree for the target
ztest() {
    z=$D/ztest
    rm -rf "$z"
    mkdir -p "$z"
    if ! { $tcc $CFLAGS $tflags -I"$TUR" "$TUR/test/example.c" "$D/tur"/*.o \
               -o "$z/example$x" $tlink &&
           $tcc $CFLAGS $tflags -I"$TUR" "$TUR/test/minigzip.c" "$D/tur"/*.o \
               -o "$z/minigzip$x" $tlink; } >"$z/build.log" 2>&1; then
        tail -n 5 "$z/build.log"
        say ztest "FAILED: example or minigzip does not build ($z/build.log)"
        sum="$sum ztest FAILED"
        return 1
    fi
    bad=0 n=0
    cd "$z"
    # zlib's make test: minigzip both ways, then example
    if [ "$(echo hello world | $run "./minigzip$x" | $run "./minigzip$x" -d)" = "hello world" ]; then
        n=$((n + 1))
    else
        echo "run_cross: $t: FAILED: echo hello world | minigzip | minigzip -d"
        bad=$((bad + 1))
    fi
    if $run "./example$x" tmpst >example.all 2>&1 &&
       sed 1d example.all | tr -d '\r' >example.out &&
       [ "$(awk 'END { print NR }' example.out)" = 7 ] &&
       cmp -s example.out "$B/host/example.out"; then
        n=$((n + 1))
    else
        echo "run_cross: $t: FAILED: example ($z/example.all; pristine zlib on the host: $B/host/example.out)"
        bad=$((bad + 1))
    fi
    # each file through minigzip, its gzip bytes against pristine on the host
    for f in $files; do
        for o in -1 -6 -9 -f -h -r; do
            "$B/host/minigzip" $o <"$f" >ref.gz
            if $run "./minigzip$x" $o <"$f" >tur.gz &&
               gzsame ref.gz tur.gz &&
               $run "./minigzip$x" -d <tur.gz >tur.out && cmp -s "$f" tur.out; then
                n=$((n + 1))
            else
                echo "run_cross: $t: FAILED: minigzip $o of $f: the gzip bytes differ from pristine zlib's on the host or do not come back"
                bad=$((bad + 1))
            fi
        done
    done
    # minigzip FILE, minigzip -d FILE.gz
    set -- $files
    cp "$1" data
    chmod u+w data
    if $run "./minigzip$x" data && [ ! -f data ] && [ -f data.gz ] &&
       $run "./minigzip$x" -d data.gz && [ ! -f data.gz ] && cmp -s "$1" data; then
        n=$((n + 1))
    else
        echo "run_cross: $t: FAILED: minigzip FILE and minigzip -d FILE.gz"
        bad=$((bad + 1))
    fi
    cd "$B"
    say ztest "example's 7 lines as pristine zlib's, minigzip: $n of $((n + bad)) runs right (hello world, each file at -1 -6 -9 -f -h -r with pristine zlib's gzip bytes, file mode)"
    sum="$sum ztest $n/$((n + bad))"
    [ $bad -eq 0 ]
}

# one T: every check on target T; its summary line into $B/T.summary;
# status 0 (all passed), 1 (a failure) or 77 (skipped)
one() {
    t=$1
    topt="-t 2-4"
    [ "$t" != win64 ] || topt="-t 2-8"
    s0=$(now)
    r=0
    target "$t" >"$B/$t.why" || r=$?
    cat "$B/$t.why"
    if [ $r -eq 1 ]; then
        echo "run_cross: summary: $t: skipped ($(sed 's/^run_cross: [^:]*: //; s/, skipped$//' "$B/$t.why" | tail -n 1))" >"$B/$t.summary"
        return 77
    fi
    echo "run_cross: summary: $t: FAILED" >"$B/$t.summary"
    [ $r -eq 0 ] || return 1
    D=$B/$t
    rm -rf "$D"
    mkdir -p "$D"
    sum=''
    # the two trees compiled for the target (pristine only when a pair is
    # needed), both at once when one target runs at a time
    s=$(now)
    need_ref=0
    if has inflate || has sums; then need_ref=1; fi
    okt=0 okr=0
    if [ $need_ref -eq 1 ]; then
        CC=$tcc CFLAGS="$CFLAGS $tflags" sh "$PAIR" objs "$REF" "$D/ref" >"$D/ref.log" 2>&1 &
        pid=$!
        [ "$JOBS" -eq 1 ] || wait $pid || okr=1
    fi
    CC=$tcc CFLAGS="$CFLAGS $tflags" sh "$PAIR" objs "$TUR" "$D/tur" >"$D/tur.log" 2>&1 || okt=1
    [ $need_ref -eq 0 ] || [ "$JOBS" -ne 1 ] || wait $pid || okr=1
    if [ $okt -ne 0 ] || [ $okr -ne 0 ]; then
        tail -n 5 "$D/tur.log" "$D/ref.log" 2>/dev/null || true
        echo "run_cross: $t: FAILED: the trees do not build for $t ($D/tur.log, $D/ref.log)"
        return 1
    fi
    if ! { $tcc $CFLAGS $tflags -I"$TUR" "$HERE/zlevels.c" "$D/tur"/*.o -o "$D/zlevels$x" $tlink &&
           { ! has optimal ||
             $tcc $CFLAGS $tflags -I"$TUR" "$HERE/zoptimal.c" "$D/tur"/*.o -o "$D/zoptimal$x" $tlink; }; } \
         >"$D/link.log" 2>&1; then
        tail -n 5 "$D/link.log"
        echo "run_cross: $t: FAILED: zlevels or zoptimal does not build ($D/link.log)"
        return 1
    fi
    if { has inflate || has sums; } && ! pair; then
        tail -n 5 "$D/pair.log"
        echo "run_cross: $t: FAILED: the pair does not build ($D/pair.log)"
        return 1
    fi
    echo "run_cross: $t: $tcc $CFLAGS${tflags:+ $tflags} $tlink${run:+, run by $run}: compiled in $(($(now) - s))s"
    ok=0
    for c in levels optimal ztest inflate sums threads; do
        has $c || continue
        s=$(now)
        $c || ok=1
    done
    echo "run_cross: summary: $t:$sum; $(($(now) - s0))s" >"$B/$t.summary"
    return $ok
}

# the targets, JOBS at a time (each in its folder; their output in order)
JOBS=${CROSS_JOBS:-1}
rc=0 ran=0 list=''
cd "$B"
for t in ${TARGETS:-x86-64 m32 arm64 armel ppc64le s390x riscv64}; do
    [ "$t" != i386 ] || t=m32
    case $t in x86-64|m32|arm64|armel|ppc64le|s390x|riscv64|win64) ;;
        *) echo "run_cross: no such target: $t" >&2; exit 2 ;; esac
    rm -f "$B/$t.summary"
    list="$list $t"
done
# status S: count a target's status
status() {
    case $1 in 0) ran=$((ran + 1)) ;; 77) ;; *) ran=$((ran + 1)) rc=1 ;; esac
}
if [ "$JOBS" -le 1 ]; then
    for t in $list; do
        r=0
        (one "$t") || r=$?
        status $r
    done
else
    set -- $list
    while [ $# -gt 0 ]; do
        pids='' batch=''
        k=0
        while [ $# -gt 0 ] && [ $k -lt "$JOBS" ]; do
            (one "$1") >"$B/$1.out" 2>&1 &
            pids="$pids $!" batch="$batch $1"
            shift
            k=$((k + 1))
        done
        for p in $pids; do
            r=0
            wait "$p" || r=$?
            status $r
        done
        for t in $batch; do cat "$B/$t.out"; done
    done
fi
for t in $list; do
    cat "$B/$t.summary" 2>/dev/null || echo "run_cross: summary: $t: FAILED"
done
# a target skipped among others that ran: a skipped part of the step
# (tools/check.sh counts each "part-skipped:" line as a SKIP)
if [ $ran -gt 0 ]; then
    for t in $list; do
        if grep -q ': skipped' "$B/$t.summary" 2>/dev/null; then
            echo "part-skipped: target $(sed 's/^run_cross: summary: //; s/: skipped / /' "$B/$t.summary")"
        fi
    done
fi
if [ $ran -eq 0 ] && [ $rc -eq 0 ]; then
    echo "run_cross: every target skipped:$(for t in $list; do printf ' %s' "$(sed 's/^run_cross: summary: //; s/: skipped//' "$B/$t.summary")"; done)"
    exit 77
fi
exit $rc
