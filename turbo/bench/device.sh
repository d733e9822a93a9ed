#!/bin/bash
# device.sh prep DIR | run DIR OUT -- the checks that need many cores, in
# one call on a lent machine without a compiler
#
# The lent 16-core machine (see ../.library/device) has no clang, no
# network and no corpus, and is lent for minutes: so everything is built
# here ("prep") into DIR (a folder the checkout ignores, e.g. .dev, carried
# to that machine), and "run" there only runs prebuilt x86-64 programs, in
# phases with their own time limits, each writing its results under OUT:
#   info      the CPU (lscpu, /proc/cpuinfo), memory, kernel      info.txt
#   threads   threads_bench: levels 6 and 9 at 1-16 threads against
#             pristine, every output compared with pristine's  threads.txt
#   optimal   optimal_bench: level 12 at 1-16 threads (bytes equal for
#             every count)                                       optimal.txt
#   inflate   zbench default build against pristine, level 6 zlib streams,
#             one call and 16 KiB chunks, two layouts (run_speed.sh's
#             LAYOUTS=2 ROTATE=1)                                inflate.txt
#   simd-ng   zbench --simd against zlib-ng's optimised build (when prep
#             found it), zlib and gzip streams, one layout       simdng.txt
#   fuzz      the differential fuzzers on all cores for what is left of
#             the time: inflate (--simd, no sanitizer), inflate, deflate,
#             checksum, optimal, deflate_threads (ASan+UBSan)    fuzz.txt
# and logs.tar.gz (every log, fuzzer logs and any crash input).
#
#   bash turbo/bench/device.sh prep .dev         (here, after make build)
#   bash turbo/bench/device.sh run .dev $OUT     (there; TOTAL=seconds [520];
#                                                 QUICK=1: a smoke test here)
# Only .dev/pack.tar.xz and .dev/mixed.tar.xz need to travel (carry them).
#
# prep's environment: CORPUS [../shared/corpus] (required: the machine has
# none), ZLIBNG [/work/comparators/zlib-ng/native/libz.a] (optional),
# FUZZ_CORPUS_inflate (a corpus folder to start the inflate fuzzers from).
# The programs are built with pair.sh's bench flags (-O2, no -march), so
# they run on any x86-64; --simd objects need AVX2, which the lent machine
# has (info.txt shows its flags).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SIMD_FLAGS="-DZ_TURBO_SIMD -mpclmul -msse4.1 -mavx2"
usage() { sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0" | sed '$d' >&2; exit 2; }
[ $# -ge 2 ] || usage

# fuzz plan: target san tur-cflags processes (16 in all)
FUZZ_PLAN="inflate none simd 6
inflate address,undefined - 4
deflate address,undefined - 3
checksum address,undefined - 1
optimal address,undefined - 1
deflate_threads address,undefined - 1"

prep() {
    D=$(mkdir -p "$1" && cd "$1" && pwd)
    C=${CORPUS:-$ROOT/../shared/corpus}
    [ -d "$C/mixed" ] || { echo "device: no corpus at $C" >&2; exit 1; }
    rm -rf "${D:?}/data" "${D:?}/bin" "${D:?}/fz" && mkdir -p "$D/data" "$D/bin" "$D/fz"
    cp -r "$C/canterbury" "$C/calgary" "$C/large" "$D/data/"
    [ -s "$D/mixed.tar.xz" ] ||
        tar cf - -C "$C" mixed | xz -T2 -6 >"$D/mixed.tar.xz"
    B=$ROOT/build/device
    rm -rf "$B" && mkdir -p "$B"
    # the benchmark drivers (each script's quick run builds and checks it)
    BUILD=$B/threads bash "$HERE/threads_bench.sh" --quick >"$B/threads.log" 2>&1
    cp "$(find "$B/threads" -type f -name threads_bench -perm -u+x | head -n 1)" "$D/bin/"
    BUILD=$B/optimal bash "$HERE/optimal_bench.sh" --quick --compressors=turbo \
        --turbo-levels=12 --zopfli=none >"$B/optimal.log" 2>&1
    cp "$B/optimal/obj/optimal_bench" "$D/bin/"
    LAYOUTS=2 ROTATE=1 SAVE_ONLY=$D/bin/def BUILD=$B/speed \
        bash "$HERE/run_speed.sh" "$ROOT/build/zlib-1.3.2" "$ROOT/build/zlib-turbo" \
        "$C/canterbury/fields.c" >"$B/speed.log" 2>&1
    NG=${ZLIBNG:-/work/comparators/zlib-ng/native/libz.a}
    if [ -f "$NG" ]; then
        LAYOUTS=1 SAVE_ONLY=$D/bin/ng BUILD=$B/speed CFLAGS="-O2 $SIMD_FLAGS" \
            bash "$HERE/run_speed.sh" "$NG" "$ROOT/build/zlib-turbo" \
            "$C/canterbury/fields.c" >>"$B/speed.log" 2>&1
        cat "$(dirname "$NG")/../SOURCE.txt" >"$D/bin/ng/SOURCE.txt" 2>/dev/null || :
    fi
    # the fuzzers: a 1-second run builds each and replays its regressions
    echo "$FUZZ_PLAN" | while read -r t san fl n; do
        [ "$fl" = simd ] && tf=$SIMD_FLAGS || tf=
        w=$t-$(echo "$san" | tr , +)${tf:+-simd}
        mkdir -p "$B/fz/$w/corpus"
        cv=FUZZ_CORPUS_$t
        if [ -n "${!cv:-}" ]; then cp "${!cv}"/* "$B/fz/$w/corpus/" 2>/dev/null || :; fi
        TUR_CFLAGS=$tf SAN=$san TIME=1 FUZZ_BUILD=$B/fz/$w \
            sh "$ROOT/turbo/tests/fuzz/run.sh" "$t" "$ROOT/build/src/zlib-1.3.2" \
            "$ROOT/build/zlib-turbo" "$B/fz/$w/corpus" >"$B/fz/$w.log" 2>&1 ||
            { echo "device: fuzz $w failed to build or replay" >&2; tail "$B/fz/$w.log" >&2; exit 1; }
        mkdir -p "$D/fz/$w"
        cp "$B/fz/$w/$t/$(echo "$san" | tr , +)/fuzz_$t" "$D/fz/$w/"
        strip -g "$D/fz/$w/fuzz_$t"
        tar czf "$D/fz/$w/corpus.tar.gz" -C "$B/fz/$w" corpus
    done
    git -C "$ROOT" rev-parse HEAD >"$D/commit"
    { echo "built $(date -u '+%F %T') UTC on $(uname -n), $(cc --version | head -n 1)"
      echo "commit $(cat "$D/commit")$(git -C "$ROOT" diff --quiet HEAD || echo ' (with uncommitted changes)')"
      echo "CFLAGS -O2; simd: $SIMD_FLAGS"; } >"$D/BUILT.txt"
    # what travels: pack.tar.xz and mixed.tar.xz (about 34 MB)
    tar cf - -C "$D" bin fz data BUILT.txt commit | xz -T2 -6 >"$D/pack.tar.xz"
    ls -l "$D/pack.tar.xz" "$D/mixed.tar.xz"
}

run() {
    P=$(cd "$1" && pwd)
    OUT=$2
    D=/tmp/devpack
    rm -rf "$D" && mkdir -p "$D"
    unxz() { if command -v xz >/dev/null; then xz -dc "$1" | tar xf - -C "$2"
             else python3 -c 'import sys,tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
                 "$1" "$2"; fi; }
    unxz "$P/pack.tar.xz" "$D"
    mkdir -p "$OUT"
    L=$OUT/logs
    mkdir -p "$L"
    T0=$(date +%s)
    TOTAL=${TOTAL:-520}
    left() { echo $((TOTAL - ($(date +%s) - T0))); }
    say() { echo "device: +$(($(date +%s) - T0))s $*"; }
    # info
    { cat "$D/BUILT.txt"; echo; uname -a; nproc; lscpu
      grep -m1 'model name' /proc/cpuinfo; grep -m1 '^flags' /proc/cpuinfo
      free -g; } >"$OUT/info.txt" 2>&1
    grep -m1 'model name' /proc/cpuinfo; nproc
    # data
    W=/tmp/devdata
    mkdir -p "$W"
    cp -r "$D/data/"* "$W/"
    unxz "$P/mixed.tar.xz" "$W"
    M=$W/mixed
    say "data ready: $(du -sh "$W" | cut -f1)"
    # QUICK=1: a smoke test of every phase in about a minute (run here first)
    if [ "${QUICK:-0}" = 1 ]; then
        big=("$W/large/world192.txt") thr=(--levels=6 --threads=1,2 --rounds=1)
        othr=(--threads=2 --reps=1) sets=(--set=canterbury "$W"/canterbury/*)
        ngsets=("${sets[@]}")
    else
        big=("$M/gcide-16m.txt" "$M/binutils-elf.tar")
        thr=(--levels=6,9 --threads=1,2,4,8,16 --rounds=3 --budget=60)
        othr=(--threads=2,4,8,16 --reps=2 --max-file-time=4)
        sets=(--set=canterbury "$W"/canterbury/* --set=calgary "$W"/calgary/*
              --set=large "$W"/large/* --set=mixed "$M"/*)
        ngsets=(--set=large "$W"/large/* --set=mixed "$M"/*)
    fi
    # threads: levels 6 and 9
    say "threads"
    timeout 80 "$D/bin/threads_bench" "${thr[@]}" --modes=whole \
        --note="device.sh on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)" \
        --set=mixed2 "${big[@]}" --set=large "$W"/large/* >"$OUT/threads.txt" 2>"$L/threads.err" ||
        echo "device: threads_bench exit $?" | tee -a "$OUT/threads.txt"
    # optimal: level 12 at 1-16 threads
    say "optimal"
    timeout 90 "$D/bin/optimal_bench" --compressors=turbo,threads \
        --turbo-levels=12 "${othr[@]}" --tsv="$L/optimal.tsv" \
        --libdeflate-skip="not on the lent machine" \
        --note="device.sh on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)" \
        --set=mixed2 "${big[@]}" --set=large "$W"/large/* >"$OUT/optimal.txt" 2>"$L/optimal.err" ||
        echo "device: optimal_bench exit $?" | tee -a "$OUT/optimal.txt"
    # inflate: default build against pristine, two layouts
    say "inflate"
    common=(--uname="$(uname -a)" --cc="prebuilt: $(head -n 1 "$D/BUILT.txt")"
            --reps=3 --ilevels=6 --min-time=0.05 --cpu=$(($(nproc) - 1)))
    for z in "$D"/bin/def/zbench.*; do
        timeout 75 "$z" "${common[@]}" --cflags=-O2 --ref=pristine --tur=zlib-turbo \
            --note="device.sh $(basename "$z") (run_speed.sh LAYOUTS=2 ROTATE=1)" \
            --ops=inflate-zlib,inflate-zlib-16k "${sets[@]}" >>"$OUT/inflate.txt" \
            2>>"$L/inflate.err" || echo "device: $z exit $?" >>"$L/inflate.err"
    done
    # simd against zlib-ng
    if [ -x "$D/bin/ng/zbench.1" ] && { [ "$(left)" -gt 240 ] || [ "${QUICK:-0}" = 1 ]; }; then
        say "simd-ng"
        timeout 45 "$D/bin/ng/zbench.1" "${common[@]}" --cflags="-O2 $SIMD_FLAGS" \
            --ref=zlib-ng --tur=zlib-turbo-simd --note="device.sh zlib-ng native in REF" \
            --ops=inflate-zlib,inflate-gzip,inflate-zlib-16k,inflate-gzip-16k \
            "${ngsets[@]}" >"$OUT/simdng.txt" \
            2>"$L/simdng.err" || echo "device: simd-ng exit $?" >>"$L/simdng.err"
    fi
    # fuzz for what is left, all processes at once
    FT=$(( $(left) - 25 ))
    say "fuzz ${FT}s"
    if [ "$FT" -gt 30 ]; then
        F=/tmp/devfuzz
        mkdir -p "$F"
        while read -r t san fl n; do
            [ "$fl" = simd ] && w=$t-$(echo "$san" | tr , +)-simd ||
                w=$t-$(echo "$san" | tr , +)
            mkdir -p "$F/$w"
            tar xzf "$D/fz/$w/corpus.tar.gz" -C "$F/$w"
            i=0
            while [ "$i" -lt "$n" ]; do
                (cd "$F/$w" && exec "$D/fz/$w/fuzz_$t" -max_total_time="$FT" \
                    -max_len=65536 -timeout=60 -rss_limit_mb=4096 \
                    -print_final_stats=1 -artifact_prefix="$F/$w/crash-$i-" \
                    corpus >"$F/$w/fuzz-$i.log" 2>&1) &
                i=$((i + 1))
            done
        done <<<"$FUZZ_PLAN"
        wait
        { echo "fuzz: every process ran -max_total_time=$FT on $(nproc) cores"
          echo "commit $(cat "$D/commit")"
          total=0
          for lg in "$F"/*/fuzz-*.log; do
              n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$lg")
              w=$(basename "$(dirname "$lg")")
              echo "$w $(basename "$lg" .log) executions ${n:-NONE} $(grep -c -E 'ERROR|deadly|difference' "$lg") reports"
              total=$((total + ${n:-0}))
          done
          echo "total $total"
          ls "$F"/*/crash-* 2>/dev/null | sed 's/^/CRASH INPUT: /' || :; } >"$OUT/fuzz.txt"
        tar czf "$L/fuzz-logs.tar.gz" -C "$F" $(cd "$F" && ls -d */fuzz-*.log */crash-* 2>/dev/null) || :
    fi
    say "done"
    tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
    tail -n 4 "$OUT/fuzz.txt" 2>/dev/null || :
}

case $1 in
    prep) prep "$2" ;;
    run) [ $# -eq 3 ] || usage; run "$2" "$3" ;;
    *) usage ;;
esac
