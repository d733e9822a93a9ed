#!/bin/sh
# variants.sh -- zlib's build variants, differentially: pristine zlib 1.3.2
# and zlib-turbo built THE SAME WAY (the same CC and CFLAGS for both source
# trees, build/zlib-1.3.2 and build/zlib-turbo, by turbo/tests/Makefile and
# turbo/harness/pair.sh) and compared by a subset of the differential suite
# (zt_tests), once per variant:
#
#   gcc-O0 gcc-O2 gcc-O3 gcc-Os clang-O0 clang-O2 clang-O3 clang-Os
#                   optimisation levels, both compilers (drivers at -O2)
#   zlib-debug      -DZLIB_DEBUG: zlib's Assert()s on (a failed one exits),
#                   z_verbose as zlib sets it; also zlib's test/example.c
#                   linked with each tree built that way: turbo's must print
#                   what pristine's prints (its OK lines)
#   inflate-strict  -DINFLATE_STRICT
#   allow-toofar    -DINFLATE_ALLOW_INVALID_DISTANCE_TOOFAR_ARRR
#   pkzip-bug       -DPKZIP_BUG_WORKAROUND
#   no-gzip         -DNO_GZIP (without the tests that need gzip: NO_GZIP_OUT)
#   no-word64       -DZT_NO_WORD64 (every word-wide technique as on a
#                   32-bit target)
#   no-threads      -DZ_TURBO_NO_THREADS (deflateSetThreads() must refuse 2
#                   threads; run with ZT_EXPECT="prepared optimal", so the
#                   threads tests skip where the harness knows ZT_EXPECT)
#   simd            configure --simd's flags (-DZ_TURBO_SIMD -mpclmul
#                   -msse4.1 -mavx2); SKIP where the CPU lacks them
#   simd-512        the same plus -mavx512f -mvpclmulqdq; SKIP without them
#   simd-auto       configure --simd=auto's flag (-DZ_TURBO_SIMD_AUTO):
#                   the suite with the CPU's own choice, then the checksum
#                   tests with the dispatch forced to each tier
#                   (ZLIB_TURBO_SIMD_MASK=0, 6, 14, 30 as the CPU allows)
#   ubsan           -O1 -g -fsanitize=undefined,alignment
#                   -fno-sanitize-recover=all (a misaligned load fails)
#   asan            -O1 -g -fsanitize=address (LeakSanitizer on)
#   valgrind        memcheck (-O2 -g) on a smaller subset (VALGRIND_FILTER)
#
# Each variant except valgrind runs FILTER (below) in quick mode on six
# corpus files (ZT_FILES; zlib's own sources without ../shared), with
# zlib-turbo's segments at 4 KiB for levels 4-9 and 10-12
# (-DZT_SEG_BITS=12 -DZO_SEG_BITS=12, given to both trees: pristine ignores
# them) so that the threads run many small cases, the threads tests at a
# quarter of their quick cases (ZT_CASE_SCALE=25).  The filter covers deflate
# levels 0-9 (files x levels, parameter matrix, flushes and slicing,
# compress2), inflate (files, slicing, dictionaries, inflateBack, gzip
# headers, sync), damaged streams (DamagedStream.Generated only in
# DAMAGED_VARIANTS, below), checksums, prepared dictionaries,
# deflateCopy/deflatePrime/gz edge tests, threaded deflate and a subset of
# levels 10-12.  Left out as too long for every variant:
# InflateIdentity.SlicedStreams, DeflateIdentity.StreamFunctions and
# .ParamsSwitching, and most of OptimalLevels (make check runs all of them).
#
# One line per variant: PASS/FAIL/SKIP, tests passed/failed/skipped,
# seconds (build + run); logs in build/variants/NAME.log, the drivers and
# libraries under build/variants/FAMILY (one folder per compiler family, so
# the drivers are built once per family and only the two libraries per
# variant).  Exits non-zero when a variant fails, 77 when every variant was
# skipped.  Not part of make check (long): make check-variants, or
# tools/check.sh variants.
#
#   VARIANTS="name ..."   only these variants (default: all, in the order above)
#   JOBS=N                make -jN for the builds (default 2)
#   FILTER=...            the gtest filter of every variant but valgrind
#   VALGRIND_FILTER=...   valgrind's filter
#   ZT_FILES=A:B          the data files (default: six corpus files)
set -u
. tools/check/lib.sh
: "${TOP:?run by tools/check.sh}" "${B:?}" "${REF:?}" "${TUR:?}" "${MAKE:=make}"
JOBS=${JOBS:-2}
V=$B/variants
mkdir -p "$V"
SUMMARY=$V/summary.txt
: >"$SUMMARY"

ALL="gcc-O0 gcc-O2 gcc-O3 gcc-Os clang-O0 clang-O2 clang-O3 clang-Os
zlib-debug inflate-strict allow-toofar pkzip-bug no-gzip no-word64 no-threads
simd simd-512 simd-auto ubsan asan valgrind"
VARIANTS=${VARIANTS:-$ALL}

# the data: six corpus files of different kinds (text, spreadsheet, object
# code, floats, fax bitmap, C source), or zlib's sources without a corpus
sample_files
export ZT_MODE=quick ZT_SEG_BITS=12 ZO_SEG_BITS=12 ZT_CASE_SCALE=${ZT_CASE_SCALE:-25}
SEG="-DZT_SEG_BITS=12 -DZO_SEG_BITS=12"

# the tests every variant runs
if [ -z "${FILTER:-}" ]; then
    F=ChecksumIdentity.*
    F=$F:DeflateIdentity.FilesAllLevels:DeflateIdentity.ParameterMatrix
    F=$F:DeflateIdentity.SlicedWithFlushes:DeflateIdentity.ShortInputs
    F=$F:DeflateIdentity.OneShotCompress2
    F=$F:InflateIdentity.FilesAllLevels:InflateIdentity.Dictionaries
    F=$F:InflateIdentity.InflateBack:InflateIdentity.GzipHeadersAndMembers
    F=$F:InflateIdentity.SyncPoints:InflateIdentity.OneShotUncompress2
    F=$F:InflateIdentity.PrimeValidateReset2:InflateEdges.*
    F=$F:DamagedStream.KnownInflateBackRepro:PreparedDictionary.*
    F=$F:DeflateCopy.*:DeflatePrimeBounds.*:GzZeroFill.*
    F=$F:DeflateThreads.*
    F=$F:OptimalLevels.LevelRange:OptimalLevels.FilesRoundTrip
    F=$F:OptimalLevels.SlicedInputSameBytes:OptimalLevels.SlicedOutputSameBytes
    F=$F:OptimalLevels.ThreadCountSameBytes:OptimalLevels.ThreadsStart
    F=$F:OptimalLevels.SyncFlushDecompressible:OptimalLevels.BoundHolds
    F=$F:OptimalLevels.DictionaryRoundTrips:OptimalLevels.PreparedDictionarySameBytes
    F=$F:OptimalLevels.CopyContinuesIdentically:OptimalLevels.ResetSameAsFresh
    F=$F:OptimalLevels.EndMidStreamFreesAll:OptimalLevels.SmallerThanLevel9
    FILTER=$F
fi
# no-gzip leaves out the tests that write or read gzip streams (windowBits
# 31, gz*) in every or in a few of their cases: deflateInit2() and
# inflateInit2() refuse gzip in both libraries built that way, and those
# tests fail on pristine zlib itself ("ref did not reproduce the data",
# "worker threads started in only 0 of N cases"); the other tests run
NO_GZIP_OUT=InflateIdentity.GzipHeadersAndMembers:GzZeroFill.*:PreparedDictionary.Errors
NO_GZIP_OUT=$NO_GZIP_OUT:DeflateThreads.FailingAllocatorLeaksOrBreaks:DeflateThreads.MovedInputDiffers
NO_GZIP_OUT=$NO_GZIP_OUT:DeflateThreads.NonConvergingDataDiffers:DeflateThreads.ResetDiffers
NO_GZIP_OUT=$NO_GZIP_OUT:DeflateThreads.SlicedCallsDiffer:DeflateThreads.UnfinishedFlushHolesDiffer
NO_GZIP_OUT=$NO_GZIP_OUT:OptimalLevels.BoundHolds:OptimalLevels.CopyContinuesIdentically
NO_GZIP_OUT=$NO_GZIP_OUT:OptimalLevels.DictionaryRoundTrips:OptimalLevels.EndMidStreamFreesAll
NO_GZIP_OUT=$NO_GZIP_OUT:OptimalLevels.FilesRoundTrip:OptimalLevels.ResetSameAsFresh
NO_GZIP_OUT=$NO_GZIP_OUT:OptimalLevels.SlicedInputSameBytes:OptimalLevels.SlicedOutputSameBytes
NO_GZIP_OUT=$NO_GZIP_OUT:OptimalLevels.SyncFlushDecompressible:OptimalLevels.ThreadCountSameBytes
# DamagedStream.Generated (15,000 damaged streams, half of a variant's
# run) only in the variants that change inflate or its build the most
DAMAGED_VARIANTS=${DAMAGED_VARIANTS:-"gcc-O0 clang-O3 zlib-debug inflate-strict allow-toofar no-gzip no-word64 simd ubsan asan"}
# valgrind: one file, short tests of each kind; not the ones in which
# pristine zlib itself reads memory it never wrote (GzZeroFill.*,
# DeflateCopy.PrimeWhilePending, DeflatePrimeBounds.*, damaged streams
# whose inflateBack() reads an unwritten window): memcheck reports those in
# pristine, and zlib-turbo's answers to them are checked by the others
if [ -z "${VALGRIND_FILTER:-}" ]; then
    F=ChecksumIdentity.Combine:ChecksumIdentity.CrcTable:ChecksumIdentity.RandomPieces
    F=$F:DeflateIdentity.FilesAllLevels:DeflateIdentity.OneShotCompress2
    F=$F:InflateIdentity.FilesAllLevels:InflateIdentity.OneShotUncompress2
    F=$F:InflateIdentity.Dictionaries:InflateEdges.OverlapCopies:InflateEdges.BufferEnds
    F=$F:PreparedDictionary.ResetBetweenMessages:PreparedDictionary.StreamStates
    F=$F:DeflateCopy.ContinuesAsOriginal
    F=$F:DeflateThreads.ThreadsNeverStart:DeflateThreads.SlicedCallsDiffer
    F=$F:DeflateThreads.EndMidStreamLeaks
    F=$F:OptimalLevels.LevelRange:OptimalLevels.FilesRoundTrip:OptimalLevels.ThreadsStart
    VALGRIND_FILTER=$F
fi
VALGRIND_FILES=${VALGRIND_FILES:-${ZT_FILES%%:*}}

SAN_UB="-O1 -g -fsanitize=undefined,alignment -fno-sanitize-recover=all"
SAN_A="-O1 -g -fsanitize=address -fno-omit-frame-pointer -fno-sanitize-recover=all"
SIMD="-DZ_TURBO_SIMD -mpclmul -msse4.1 -mavx2"

# define NAME: the variant's settings: fam (build folder), cc, cxx, cflags
# (both trees, zapi), cxxflags (the drivers and the link), env (for the
# run), runner (before zt_tests), filter (pos-neg); or why to skip it
define() {
    fam=gcc cc=gcc cxx=g++ cxxflags=-O2 env= runner= pos=$FILTER neg= why= extra=
    case $1 in
    gcc-O?|clang-O?)
        case $1 in clang-*) fam=clang cc=clang cxx=clang++ ;; esac
        cflags="-${1#*-}" ;;
    zlib-debug)      cflags="-O2 -DZLIB_DEBUG" extra=example ;;
    inflate-strict)  cflags="-O2 -DINFLATE_STRICT" ;;
    allow-toofar)    cflags="-O2 -DINFLATE_ALLOW_INVALID_DISTANCE_TOOFAR_ARRR" ;;
    pkzip-bug)       cflags="-O2 -DPKZIP_BUG_WORKAROUND" ;;
    no-gzip)         cflags="-O2 -DNO_GZIP" neg=$NO_GZIP_OUT ;;
    no-word64)       cflags="-O2 -DZT_NO_WORD64" ;;
    no-threads)      cflags="-O2 -DZ_TURBO_NO_THREADS"
                     env="ZT_EXPECT=prepared optimal" ;;
    simd)            cflags="-O2 $SIMD"
                     simd_cpu || why="this CPU lacks PCLMULQDQ, SSE4.1 or AVX2" ;;
    simd-512)        cflags="-O2 $SIMD -mavx512f -mvpclmulqdq"
                     { simd_cpu && cpu_has avx512f && cpu_has vpclmulqdq; } ||
                         why="this CPU lacks AVX-512F or VPCLMULQDQ" ;;
    simd-auto)       cflags="-O2 -DZ_TURBO_SIMD_AUTO" extra=dispatch
                     simd_cpu || why="this CPU lacks PCLMULQDQ, SSE4.1 or AVX2" ;;
    ubsan)           fam=ubsan cflags=$SAN_UB cxxflags=$SAN_UB
                     env="UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1" ;;
    asan)            fam=asan cflags=$SAN_A cxxflags=$SAN_A
                     env="ASAN_OPTIONS=detect_leaks=1:halt_on_error=1" ;;
    valgrind)        cflags="-O2 -g" pos=$VALGRIND_FILTER
                     env="ZT_FILES=$VALGRIND_FILES"
                     runner="valgrind -q --error-exitcode=99 --leak-check=full"
                     runner="$runner --errors-for-leak-kinds=definite,indirect"
                     runner="$runner --show-leak-kinds=definite,indirect"
                     command -v valgrind >/dev/null 2>&1 || why="no valgrind here" ;;
    *) echo "variants.sh: no such variant: $1 (variants: $(echo $ALL))" >&2
       return 1 ;;
    esac
    if [ -z "$why" ]; then
        for c in "$cc" "$cxx"; do
            command -v "$c" >/dev/null 2>&1 || { why="no $c here"; break; }
        done
    fi
    cflags="$cflags $SEG"
    case " $DAMAGED_VARIANTS " in
    *" $1 "*) pos=$pos:DamagedStream.Generated ;;
    esac
    filter=$pos${neg:+-$neg}
}

simd_cpu() {
    case $(uname -m) in x86_64|i?86|amd64) ;; *) return 1 ;; esac
    cpu_has pclmulqdq && cpu_has sse4_1 && cpu_has avx2
}

# gcount LOG WORD: the number on gtest's "[  WORD  ] N tests" line
gcount() {
    sed -n "s/^\[  $2 *\] \([0-9]*\) tests\{0,1\}.*/\1/p" "$1" |
        awk '{ n += $1 } END { print n + 0 }'
}

# example VARIANT-LOG: zlib's test/example.c linked with each tree built
# with $cc $cflags; turbo's output must be pristine's and hold the OK lines
example() {
    for side in ref tur; do
        case $side in ref) t=$REF ;; tur) t=$TUR ;; esac
        d=$V/example/$side
        rm -rf "$d"
        mkdir -p "$d"
        CC=$cc CFLAGS=$cflags sh turbo/harness/pair.sh objs "$t" "$d/o" || return 1
        # shellcheck disable=SC2086
        $cc $cflags -I"$t" -o "$d/example" "$t/test/example.c" "$d"/o/*.o \
            -lpthread || return 1
        (cd "$d" && ./example >out.txt 2>err.txt)
        echo "example ($side): exit $?, stdout:"
        sed 's/^/  /' "$d/out.txt"
        echo "example ($side) stderr: $(wc -l <"$d/err.txt") lines"
        head -n 20 "$d/err.txt" | sed 's/^/  /'
    done
    cmp -s "$V/example/ref/out.txt" "$V/example/tur/out.txt" ||
        { echo "example: turbo's output is not pristine's"; return 1; }
    for ok in 'uncompress(): hello, hello!' 'gzread(): hello, hello!' \
              'inflate(): hello, hello!' 'large_inflate(): OK' \
              'after inflateSync(): hello, hello!' \
              'inflate with dictionary: hello, hello!'; do
        grep -qF "$ok" "$V/example/tur/out.txt" ||
            { echo "example: turbo printed no '$ok'"; return 1; }
    done
    (cd "$V/example/tur" && ./example >/dev/null 2>&1) ||
        { echo "example: turbo's exits non-zero"; return 1; }
    echo "example: turbo prints what pristine prints, every OK line"
}

# dispatch: the checksum tests again with each SIMD tier forced
dispatch() {
    for m in 0 6 14 30; do
        case $m in
        14) cpu_has vpclmulqdq || continue ;;
        30) { cpu_has vpclmulqdq && cpu_has avx512f; } || continue ;;
        esac
        echo "== ZLIB_TURBO_SIMD_MASK=$m ChecksumIdentity.*"
        ZLIB_TURBO_SIMD_MASK=$m "$O/zt_tests" --gtest_filter='ChecksumIdentity.*' ||
            return 1
    done
}

# every name first: a typo must not end a long run half-way
for name in $VARIANTS; do define "$name" || exit 2; done

npass=0 nfail=0 nskip=0 failed=
t0=$(date +%s)
say() { echo "$*"; echo "$*" >>"$SUMMARY"; [ -z "${VARIANTS_TTY:-}" ] || echo "$*" >&3; }

say "variants: $(echo $VARIANTS)"
say "  commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo ' (with changes)')"
say "  cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(getconf _NPROCESSORS_ONLN) cores"
for c in gcc clang valgrind; do
    command -v $c >/dev/null 2>&1 && say "  $c: $($c --version 2>&1 | head -n 1)"
done
say "  data: ZT_FILES=$ZT_FILES"
say "  quick mode, ZT_SEG_BITS=12 ZO_SEG_BITS=12 ZT_CASE_SCALE=$ZT_CASE_SCALE"
say "  filter: $FILTER"
say "  and DamagedStream.Generated in: $DAMAGED_VARIANTS"
say "  no-gzip without: $NO_GZIP_OUT"
say "  valgrind filter (ZT_FILES=$VALGRIND_FILES): $VALGRIND_FILTER"
for name in $VARIANTS; do
    define "$name" || exit 2
    log=$V/$name.log
    s=$(date +%s)
    if [ -n "$why" ]; then
        echo "SKIP: $why" >"$log"
        nskip=$((nskip + 1))
        say "$(printf 'SKIP  %-16s %s' "$name" "($why)")"
        continue
    fi
    O=$V/$fam
    {
        echo "== $name: CC=$cc CXX=$cxx CFLAGS=$cflags CXXFLAGS=$cxxflags"
        echo "== REF=$REF TUR=$TUR"
        echo "== env: $env"
        echo "== runner: $runner"
        echo "== filter: $filter"
    } >"$log"
    st=ok
    # shellcheck disable=SC2086
    nice $MAKE -s -j"$JOBS" -C turbo/tests O="$O" REF="$REF" TUR="$TUR" ZINC="$REF" \
        CC="$cc" CXX="$cxx" CFLAGS="$cflags" CXXFLAGS="$cxxflags" \
        LDFLAGS="" REF_CFLAGS= TUR_CFLAGS= >>"$log" 2>&1 || st=build
    if [ $st = ok ]; then
        echo "== run" >>"$log"
        # shellcheck disable=SC2086
        env ${env:+"$env"} $runner "$O/zt_tests" --gtest_filter="$filter" \
            >>"$log" 2>&1 || st=run
    fi
    if [ $st = ok ] && [ -n "$extra" ]; then
        echo "== $extra" >>"$log"
        $extra >>"$log" 2>&1 || st=$extra
    fi
    secs=$(($(date +%s) - s))
    np=$(gcount "$log" PASSED) nf=$(gcount "$log" FAILED) ns=$(gcount "$log" SKIPPED)
    counts="$np passed, $nf failed, $ns skipped"
    if [ $st = ok ]; then
        npass=$((npass + 1))
        say "$(printf 'PASS  %-16s %-36s %5ss' "$name" "$counts" "$secs")"
    else
        nfail=$((nfail + 1)) failed="$failed $name"
        note=
        case $st in
        build) note="build failed" ;;
        run) [ "$nf" -gt 0 ] || note="zt_tests died" ;;
        *) note="$st failed" ;;
        esac
        say "$(printf 'FAIL  %-16s %-36s %5ss  %s' "$name" "$counts" "$secs" \
            "${note:+($note) }build/variants/$name.log")"
        nd=$(grep -c '^ref and tur differ' "$log")
        say "      | $nd reports of 'ref and tur differ' (the others: a test's own check failed)"
        { grep '^\[  FAILED  \] [A-Za-z0-9_]*\.[A-Za-z0-9_]*$' "$log" | sort -u | head -n 8
          grep -i -E 'seed|runtime error|ERROR: (Address|Leak)Sanitizer|Assert|==[0-9]+== [A-Z]' "$log" |
              head -n 8
          [ $st = build ] && tail -n 8 "$log"
        } | sed 's/^/      | /' | while IFS= read -r l; do say "$l"; done
    fi
done
e=$(($(date +%s) - t0))
say ""
say "variants took ${e}s: $npass passed, $nfail failed, $nskip skipped${failed:+ (failed:$failed)}"
[ "$nfail" -eq 0 ] || exit 1
[ "$npass" -gt 0 ] || skip "every variant was skipped"
exit 0
