#!/bin/sh
# fuzz-replay.sh -- every regression input of the fuzzers
# (turbo/tests/fuzz/regressions/TARGET-*.bin: inputs that once found a
# difference or a sanitizer report) replayed through its target
# fuzz_TARGET.c with the plain driver turbo/tests/fuzz/replay.c, built with
# cc under AddressSanitizer and UBSan (pair.sh's san flags, or CFLAGS), so
# that they run where clang's libFuzzer is missing; pristine zlib and
# zlib-turbo linked side by side as for fuzzing (with the target's own
# "tur-cflags").  Fails on any difference (the target abort()s), a sanitizer
# report or a target that does not build.
set -eu
F=turbo/tests/fuzz
PAIR=turbo/harness/pair.sh
W=$LOG/fuzz-replay
rm -rf "$W"
mkdir -p "$W"
CFLAGS=${CFLAGS:-$(sh "$PAIR" cflags san)}
total=0
for src in "$F"/fuzz_*.c; do
    t=${src##*/fuzz_}
    t=${t%.c}
    tf=$(sed -n '1,/\*\//s/^ \* tur-cflags: //p' "$src")
    echo "fuzz-replay: $t: building with ${CC:-cc} $CFLAGS${tf:+ (zlib-turbo: $tf)}"
    CFLAGS=$CFLAGS TUR_CFLAGS=$tf sh "$PAIR" build "$W/$t" "replay_$t" \
        "$PRISTINE" "$TUR" "$TOP/$src" "$TOP/$F/replay.c" >"$W/$t.build.log" 2>&1 ||
        { cat "$W/$t.build.log"; echo "fuzz-replay: $t does not build"; exit 1; }
    set -- "$F/regressions/$t"-*.bin
    if [ ! -f "$1" ]; then
        echo "fuzz-replay: $t: no regression inputs yet (built only)"
        continue
    fi
    "$W/$t/replay_$t" "$@"
    total=$((total + $#))
done
echo "fuzz-replay: $total regression inputs, no difference"
