#!/bin/sh
# run.sh TARGET [REF_TREE TURBO_TREE [CORPUS_DIR]] -- a differential fuzzer
#
# TARGET names the libFuzzer target fuzz_TARGET.c in this folder (inflate,
# deflate, deflate_threads, optimal, checksum; a new target is a new fuzz_<name>.c,
# nothing else; a line " * tur-cflags: FLAGS" in its opening comment adds
# FLAGS to zlib-turbo's compilation for that target only, as TUR_CFLAGS:
# threads builds it with -DZT_SEG_BITS=10 and optimal with -DZO_SEG_BITS=10,
# so that small inputs cross segments; a line " * fuzz-args: ARGS" gives
# libFuzzer options, before FUZZ_ARGS: the compressors' -max_len, which
# keeps their executions cheap).  It calls
# pristine zlib (REF_TREE, default build/src/zlib-1.3.2) and zlib-turbo
# (TURBO_TREE, default build/zlib-turbo) the same way and abort()s on any
# difference; both trees are compiled with clang, the sanitizers and
# -fsanitize=fuzzer-no-link (pair.sh's fuzz flags) and linked side by side
# by turbo/harness/pair.sh.  For each sanitizer build of SAN, this script
#   1. builds FUZZ_BUILD/TARGET/<san>/fuzz_TARGET;
#   2. replays regressions/TARGET-*.bin, the inputs that once found a
#      difference;
#   3. fuzzes for TIME seconds on CORPUS_DIR (default
#      FUZZ_BUILD/TARGET/corpus), first seeded when empty with the committed
#      seeds seeds/TARGET/* (small inputs at the target's edges), the
#      regression inputs, and what seed_TARGET below makes: inflate with
#      streams that pristine zlib (Python's zlib) makes from a few files of
#      ../shared/corpus/canterbury (or of REF_TREE), each behind the four
#      parameter bytes fuzz_inflate.c reads first; deflate with pieces of
#      three text files behind four 12-byte headers; deflate_threads with
#      pieces of four text files behind 16-byte headers (levels 4-9, 2-16
#      threads, each way of expanding the data); optimal (levels 10-12,
#      checked against pristine inflate and its own one-call run) likewise,
#      with levels 10-12, flushes, deflateParams() switches, copies and
#      threads; a target without seeds here starts from an empty corpus.
#
# Environment: TIME (seconds per build, default 60), JOBS (libFuzzer -jobs
# and -workers: that many fuzzing processes at once, default 1), SAN (the
# builds, each a list for -fsanitize=; default "address,undefined": one
# build with both; "address undefined" makes two, run one after the other;
# "none": no sanitizer, -O2, several times the executions per second, for
# differences from pristine only),
# CLANG (clang), FUZZ_BUILD (build/fuzz), FUZZ_ARGS (more libFuzzer
# options).
# Prints libFuzzer's final statistics; its log stays in the build folder,
# with the input that found a difference.  Exit status: 0 when nothing was
# found, 77 when clang has no libFuzzer (make check's SKIP), 2 on bad usage,
# else 1.
set -eu
usage() { sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
case $# in 1|3|4) ;; *) usage ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
PAIR=$ROOT/turbo/harness/pair.sh
T=$1
[ -f "$HERE/fuzz_$T.c" ] ||
    { echo "fuzz: no target $T (no $HERE/fuzz_$T.c)" >&2; exit 2; }
REF=$(cd "${2:-$ROOT/build/src/zlib-1.3.2}" && pwd)
TUR=$(cd "${3:-$ROOT/build/zlib-turbo}" && pwd)
CLANG=${CLANG:-clang}
TIME=${TIME:-60}
FB=${FUZZ_BUILD:-$ROOT/build/fuzz}
CORPUS=${4:-$FB/$T/corpus}
mkdir -p "$FB/$T" "$CORPUS"
CORPUS=$(cd "$CORPUS" && pwd)

# is libFuzzer there?
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$FB/$T/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$FB/$T/probe.c" -o "$FB/$T/probe" >/dev/null 2>&1; then
    echo "fuzz-$T: $CLANG has no libFuzzer (-fsanitize=fuzzer): skipped"
    exit 77
fi

# seed_TARGET CORPUS: the first inputs of an empty corpus (called by name)
# shellcheck disable=SC2317
seed_inflate() {
    src=$ROOT/../shared/corpus/canterbury
    [ -d "$src" ] || src=$REF
    cat >"$FB/$T/seed.py" <<'PY'
import os, sys, zlib
src, out = sys.argv[1], sys.argv[2]
files = sorted(f for f in os.listdir(src) if os.path.isfile(os.path.join(src, f)))
k = 0
for i, f in enumerate(files[:8]):
    data = open(os.path.join(src, f), 'rb').read()[:20000]
    for wrap, wb in ((0, -15), (1, 15), (2, 31), (0, -9), (3, 31)):
        for lvl in (1, 6, 9):
            c = zlib.compressobj(lvl, zlib.DEFLATED, wb)
            z = c.compress(data[: 1000 + 3000 * (k % 7)]) + c.flush()
            w = (abs(wb) & 15) - 8
            hdr = bytes([wrap | (w << 2), (k * 37) & 255, (k * 91) & 255, k & 3])
            open(os.path.join(out, 'seed%03d' % k), 'wb').write(hdr + z)
            k += 1
PY
    python3 "$FB/$T/seed.py" "$src" "$1"
}
# shellcheck disable=SC2317
seed_deflate() {
    n=0
    for f in "$ROOT/README.md" "$ROOT/turbo/TECHNIQUES.md" "$HERE/fuzz_deflate.c"; do
        [ -f "$f" ] || continue
        for hdr in 'abcdefgh\006\000\010\020' 'hgfedcba\001\001\020\001' \
                   'zyxwvuts\011\002\002\045' 'qwertyui\003\003\017\060'; do
            n=$((n + 1))
            # shellcheck disable=SC2059
            { printf "$hdr"; head -c $((2000 * n)) "$f"; } >"$1/seed$n"
        done
    done
}
# shellcheck disable=SC2317
seed_deflate_threads() {
    n=0
    for f in "$ROOT/README.md" "$ROOT/turbo/TECHNIQUES.md" \
             "$HERE/fuzz_deflate_threads.c" "$ROOT/turbo/harness/pair.sh"; do
        [ -f "$f" ] || continue
        # seed, level, strategy, windowBits, memLevel and expansion,
        # threads, KiB, flags, spare (the last three: windowBits 8-11,
        # memLevel 1-3, at most 16 KiB, only special steps or block flushes)
        for hdr in 'abcdefgh\002\000\017\010\000\010\000\000' \
                   'hgfedcba\005\003\027\030\001\020\001\000' \
                   'zyxwvuts\003\001\007\050\002\077\004\000' \
                   'qwertyui\000\005\016\067\356\004\010\000' \
                   'asdfghjk\360\000\017\010\003\040\000\000' \
                   'mnbvcxzl\005\000\041\101\002\104\020\000' \
                   'poiuytre\003\003\051\102\003\110\060\000' \
                   'lkjhgfds\004\000\040\100\001\103\034\000'; do
            n=$((n + 1))
            # shellcheck disable=SC2059
            { printf "$hdr"; head -c $((700 * n)) "$f"; } >"$1/seed$n"
        done
    done
}
# shellcheck disable=SC2317
seed_optimal() {
    n=0
    for f in "$ROOT/README.md" "$ROOT/turbo/TECHNIQUES.md" \
             "$HERE/fuzz_optimal.c" "$ROOT/turbo/harness/pair.sh"; do
        [ -f "$f" ] || continue
        # seed, level, strategy, windowBits and wrapper, memLevel and
        # expansion, threads, KiB, flags, thread changes
        for hdr in 'abcdefgh\000\000\017\010\003\020\030\040' \
                   'hgfedcba\001\003\007\061\001\040\041\000' \
                   'zyxwvuts\002\006\027\022\007\010\156\200' \
                   'qwertyui\000\004\011\050\005\077\210\020' \
                   'asdfghjk\001\005\036\010\002\004\377\377'; do
            n=$((n + 1))
            # shellcheck disable=SC2059
            { printf "$hdr"; head -c $((500 * n)) "$f"; } >"$1/seed$n"
        done
    done
}
if [ -z "$(ls -A "$CORPUS")" ]; then
    # the committed seeds, the generated ones and the regression inputs:
    # a short run starts where the edges found so far are
    if [ -d "$HERE/seeds/$T" ]; then cp "$HERE/seeds/$T"/* "$CORPUS"/; fi
    if command -v "seed_$T" >/dev/null; then "seed_$T" "$CORPUS"; fi
    for f in "$HERE/regressions/$T"-*.bin; do
        if [ -f "$f" ]; then cp "$f" "$CORPUS"/; fi
    done
fi

# the target's own flags for zlib-turbo (" * tur-cflags: ..." at its top)
TF=$(sed -n '1,/\*\//s/^ \* tur-cflags: //p' "$HERE/fuzz_$T.c")
TF="${TUR_CFLAGS:-}${TUR_CFLAGS:+${TF:+ }}$TF"
# The compressors' own comparisons (match finders: window bytes against
# window bytes) tell libFuzzer nothing about its input's structure, and
# tracing them took 30-80% of an execution (optimal: 5.7 times the time):
# for the compression targets (and inflate_threads, whose input is a plan
# for a stream it makes) both libraries are built without trace-cmp,
# keeping edge coverage; the target's own code (which decodes the plan
# from the input) keeps it.  FUZZ_TRACE_CMP=1 builds them with it.
case $T:${FUZZ_TRACE_CMP:-0} in
deflate:0|deflate_threads:0|optimal:0|inflate_threads:0)
    NOCMP=-fno-sanitize-coverage=trace-cmp ;;
*) NOCMP= ;;
esac
TF="$TF${NOCMP:+ $NOCMP}"
# the target's own libFuzzer options (" * fuzz-args: ..."), FUZZ_ARGS after
FA=$(sed -n '1,/\*\//s/^ \* fuzz-args: //p' "$HERE/fuzz_$T.c")

rc=0
for san in ${SAN:-address,undefined}; do
    W=$FB/$T/$(echo "$san" | tr , +)
    mkdir -p "$W"
    echo "fuzz-$T [$san]: building $W/fuzz_$T${TF:+ (zlib-turbo: $TF)}"
    CC=$CLANG CFLAGS=$(sh "$PAIR" cflags fuzz "$san") LDFLAGS=-fsanitize=fuzzer \
        TUR_CFLAGS=$TF REF_CFLAGS=$NOCMP \
        sh "$PAIR" build "$W" "fuzz_$T" "$REF" "$TUR" "$HERE/fuzz_$T.c"
    set -- "$HERE/regressions/$T"-*.bin
    if [ -f "$1" ]; then
        if "$W/fuzz_$T" "$@" >"$W/regressions.log" 2>&1; then
            echo "fuzz-$T [$san]: the $# regression inputs pass"
        else
            echo "fuzz-$T [$san]: FAILED on a regression input (see $W/regressions.log)"
            tail -n 30 "$W/regressions.log"
            rc=1
            continue
        fi
    fi
    echo "fuzz-$T [$san]: $TIME s, corpus $CORPUS${FA:+, $FA}"
    # shellcheck disable=SC2086
    if (cd "$W" && "./fuzz_$T" -max_total_time="$TIME" -max_len=65536 \
            -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
            ${JOBS:+-jobs=$JOBS -workers=$JOBS} $FA ${FUZZ_ARGS:-} "$CORPUS") \
            >"$W/fuzz.log" 2>&1; then
        echo "fuzz-$T [$san]: no difference, no sanitizer report in ${TIME}s"
    else
        echo "fuzz-$T [$san]: FAILED (see $W/fuzz.log)"
        tail -n 30 "$W/fuzz.log"
        rc=1
    fi
    grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' \
        "$W/fuzz.log" || true
done
exit $rc
