#!/bin/sh
# run_fuzz_deflate.sh REF_TREE TURBO_TREE CORPUS_DIR
#
# Builds the differential deflate fuzzer (fuzz_deflate.c) with clang's
# libFuzzer against two zlib source trees (pristine first, then the one under
# test), once with AddressSanitizer and once with UndefinedBehaviorSanitizer
# (no recovery), and runs each for $TIME seconds (default 20) on CORPUS_DIR
# (made and seeded when empty; new inputs are added to it).
#
# Environment: TIME (20), SAN ("address undefined"), JOBS (1), CLANG (clang),
#   FUZZ_BUILD (build/fuzz), FUZZ_ARGS (more libFuzzer options).
# Exit status: 0 when every run ended without a finding, 77 when clang's
# libFuzzer is not available (make check counts that as a skip), else 1.
set -eu
[ $# -eq 3 ] || { sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 2; }
abspath() { (cd "$1" && pwd); }
REF=$(abspath "$1") TUR=$(abspath "$2")
mkdir -p "$3"
CORPUS=$(abspath "$3")
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
H=$REPO/turbo/harness
CLANG=${CLANG:-clang}
TIME=${TIME:-20}
B=${FUZZ_BUILD:-$REPO/build/fuzz}
mkdir -p "$B"

# is libFuzzer there?
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$B/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$B/probe.c" -o "$B/probe" >/dev/null 2>&1; then
    echo "run_fuzz_deflate: $CLANG has no libFuzzer (-fsanitize=fuzzer): skipped"
    exit 77
fi

# seeds: a few small inputs (12-byte header + data) when the corpus is empty
if [ -z "$(ls -A "$CORPUS")" ]; then
    n=0
    for f in "$REPO/README.md" "$REPO/turbo/TECHNIQUES.md" "$HERE/fuzz_deflate.c"; do
        [ -f "$f" ] || continue
        for hdr in 'abcdefgh\006\000\010\020' 'hgfedcba\001\001\020\001' \
                   'zyxwvuts\011\002\002\045' 'qwertyui\003\003\017\060'; do
            n=$((n + 1))
            { printf "$hdr"; head -c $((2000 * n)) "$f"; } >"$CORPUS/seed$n"
        done
    done
fi

# mkzobj.sh joins the objects with "$CC $CFLAGS -nostdlib -r": keep the
# sanitizer runtimes out of that step (they are linked once, at the end)
cat >"$B/cc-r" <<EOF2
#!/bin/sh
for a; do [ "\$a" = -r ] && exec ld -r \$(for b; do case \$b in -o|*.o) echo "\$b";; esac; done); done
exec $CLANG "\$@"
EOF2
chmod +x "$B/cc-r"

rc=0
for san in ${SAN:-address undefined}; do
    case $san in
        address) SF="-fsanitize=address" ;;
        undefined) SF="-fsanitize=undefined -fno-sanitize-recover=all" ;;
        *) echo "run_fuzz_deflate: unknown SAN $san" >&2; exit 2 ;;
    esac
    W=$B/$san
    mkdir -p "$W"
    CFL="-O1 -g $SF -fsanitize=fuzzer-no-link"
    CC=$B/cc-r CFLAGS="$CFL" sh "$H/mkzobj.sh" ref_ "$W/zref.o" "$REF"
    CC=$B/cc-r CFLAGS="$CFL" sh "$H/mkzobj.sh" tur_ "$W/ztur.o" "$TUR"
    $CLANG $CFL -I"$H" -I"$REF" -DZAPI_PREFIX=ref_ -DZAPI_TABLE=zapi_ref \
        -c "$H/zapi_impl.c" -o "$W/zapi_ref.o"
    $CLANG $CFL -I"$H" -I"$REF" -DZAPI_PREFIX=tur_ -DZAPI_TABLE=zapi_tur \
        -c "$H/zapi_impl.c" -o "$W/zapi_tur.o"
    $CLANG -O1 -g $SF -fsanitize=fuzzer -I"$H" -I"$REF" "$HERE/fuzz_deflate.c" \
        "$W/zapi_ref.o" "$W/zapi_tur.o" "$W/zref.o" "$W/ztur.o" \
        -o "$W/fuzz_deflate"
    echo "run_fuzz_deflate: $san, $TIME s, corpus $CORPUS"
    # shellcheck disable=SC2086
    if (cd "$W" && ./fuzz_deflate -max_total_time="$TIME" -max_len=65536 \
            -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
            ${JOBS:+-jobs=$JOBS -workers=$JOBS} ${FUZZ_ARGS:-} "$CORPUS") \
            >"$W/fuzz.log" 2>&1; then
        echo "run_fuzz_deflate: $san: no difference, no sanitizer report"
    else
        echo "run_fuzz_deflate: $san: FAILED (see $W/fuzz.log)"
        rc=1
    fi
    grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$W/fuzz.log" || true
    tail -n 3 "$W/fuzz.log"
done
exit $rc
