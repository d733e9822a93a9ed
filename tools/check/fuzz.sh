#!/bin/sh
# fuzz.sh TARGET -- a short run (FUZZ_TIME seconds, default 10) of the
# differential fuzzer turbo/tests/fuzz/fuzz_TARGET.c from a fresh corpus,
# after its regression inputs (turbo/tests/fuzz/run.sh); skipped (77) where
# clang has no libFuzzer
set -eu
rm -rf "$LOG/fuzz/$1"
TIME=${FUZZ_TIME:-10} FUZZ_BUILD="$LOG/fuzz" exec sh turbo/tests/fuzz/run.sh \
    "$1" "$PRISTINE" "$TUR"
