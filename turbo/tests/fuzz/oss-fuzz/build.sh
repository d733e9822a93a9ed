#!/bin/bash -eu
# build.sh -- OSS-Fuzz's build script for zlib-turbo's differential fuzzers
#
# OSS-Fuzz runs it in the source checkout ($SRC/zlib-turbo, see the
# Dockerfile beside it) with its own CC, CXX, CFLAGS, CXXFLAGS (sanitizer
# and coverage flags, -fsanitize=fuzzer-no-link) and LIB_FUZZING_ENGINE,
# and takes the programs it writes to $OUT.  Each target
# turbo/tests/fuzz/fuzz_TARGET.c becomes $OUT/fuzz_TARGET: pristine zlib
# 1.3.2 and zlib-turbo compiled from source with those flags, renamed side
# by side by turbo/harness/pair.sh (the same build as turbo/tests/fuzz/run.sh
# makes), with the target's own " * tur-cflags:" for zlib-turbo.  Its
# regression inputs (regressions/TARGET-*.bin) go into
# $OUT/fuzz_TARGET_seed_corpus.zip.  The pristine sources were fetched and
# verified when the image was made (make build/stamp-fetch); here make only
# applies our patch series (make build/stamp-tree): no network is needed.
#
# Try it outside OSS-Fuzz: CC=clang CXX=clang++ CFLAGS="-O1 -g
# -fsanitize=address,fuzzer-no-link" CXXFLAGS="$CFLAGS"
# LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out WORK=/tmp/work
# turbo/tests/fuzz/oss-fuzz/build.sh (from the repository's top).
cd "$(dirname "$0")/../../../.."
make build/stamp-tree
mkdir -p "$OUT" "$WORK"
F=turbo/tests/fuzz
for src in "$F"/fuzz_*.c; do
    t=${src##*/fuzz_}
    t=${t%.c}
    tf=$(sed -n '1,/\*\//s/^ \* tur-cflags: //p' "$src")
    rm -rf "${WORK:?}/$t"
    LINK_CXX=1 TUR_CFLAGS=$tf LDFLAGS="$LIB_FUZZING_ENGINE" \
        sh turbo/harness/pair.sh build "$WORK/$t" "fuzz_$t" \
        build/src/zlib-1.3.2 build/zlib-turbo "$PWD/$src"
    cp "$WORK/$t/fuzz_$t" "$OUT/"
    set -- "$F/regressions/$t"-*.bin
    if [ -f "$1" ]; then
        rm -f "$OUT/fuzz_${t}_seed_corpus.zip"
        python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w")
for f in sys.argv[2:]: z.write(f, f.rsplit("/", 1)[-1])' \
            "$OUT/fuzz_${t}_seed_corpus.zip" "$@"
    fi
done
