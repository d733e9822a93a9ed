#!/bin/sh
# run_fuzz.sh REF TURBO CORPUS -- build fuzz_inflate and run it
#
# REF, TURBO: zlib source trees (pristine 1.3.2, zlib-turbo); both are
# compiled with clang, AddressSanitizer and UndefinedBehaviorSanitizer and
# renamed (turbo/harness/mkzobj.sh) into one libFuzzer program.  CORPUS: a
# folder for the corpus; when empty it is seeded with streams made by
# pristine zlib from a few files of ../shared/corpus (or the zlib tree),
# each with the four parameter bytes fuzz_inflate.c reads first.
#
# Environment: TIME (seconds, default 60), BUILD (default <repo>/build/fuzz),
# CC (clang), JOBS (libFuzzer -jobs and -workers: that many fuzzing
# processes at once, default 1; -jobs alone runs at most half as many as
# there are cores).  The last line of the log libFuzzer writes is printed;
# exit status is libFuzzer's (non-zero on a difference or a sanitizer
# report: the crashing input is left in BUILD).
set -eu
REF=${1:?usage: run_fuzz.sh REF TURBO CORPUS}
TUR=${2:?usage: run_fuzz.sh REF TURBO CORPUS}
CORPUS=${3:?usage: run_fuzz.sh REF TURBO CORPUS}
TIME=${TIME:-60}
CC=${CC:-clang}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
H=$ROOT/turbo/harness
BUILD=${BUILD:-$ROOT/build/fuzz}
mkdir -p "$BUILD" "$CORPUS"
CORPUS=$(cd "$CORPUS" && pwd)
SAN="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# compile each tree's library sources into a static library first, so that
# the relocatable link in mkzobj.sh runs without sanitizer runtimes
for x in ref:$REF tur:$TUR; do
    p=${x%%:*}; t=${x#*:}
    rm -rf "$BUILD/$p-lib"; mkdir -p "$BUILD/$p-lib"
    for c in "$t"/*.c; do
        case $(basename "$c") in example.c|minigzip.c) continue ;; esac
        # shellcheck disable=SC2086
        $CC $SAN -fsanitize=fuzzer-no-link -D_LARGEFILE64_SOURCE=1 \
            -DHAVE_UNISTD_H -DHAVE_STDARG_H -I"$t" -c "$c" \
            -o "$BUILD/$p-lib/$(basename "$c" .c).o"
    done
    rm -f "$BUILD/$p-lib/libz.a"
    ar rc "$BUILD/$p-lib/libz.a" "$BUILD/$p-lib"/*.o
    CC=$CC CFLAGS= sh "$H/mkzobj.sh" ${p}_ "$BUILD/$p.o" "$BUILD/$p-lib/libz.a"
done
for p in ref tur; do
    $CC $SAN -I"$H" -I"$REF" -DZAPI_PREFIX=${p}_ -DZAPI_TABLE=zapi_$p \
        -c "$H/zapi_impl.c" -o "$BUILD/zapi_$p.o"
done
$CC $SAN -fsanitize=fuzzer -I"$H" -I"$REF" "$HERE/fuzz_inflate.c" \
    "$BUILD/zapi_ref.o" "$BUILD/zapi_tur.o" "$BUILD/ref.o" "$BUILD/tur.o" \
    -o "$BUILD/fuzz_inflate"
if [ -z "$(ls -A "$CORPUS")" ]; then
    # seed: a few streams of pieces of files, every wrapper and window
    SEEDSRC=$ROOT/../shared/corpus/canterbury
    [ -d "$SEEDSRC" ] || SEEDSRC=$REF
    cat >"$BUILD/seed.py" <<'PY'
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
    python3 "$BUILD/seed.py" "$SEEDSRC" "$CORPUS"
fi
cd "$BUILD"
rc=0
"$BUILD/fuzz_inflate" -max_total_time="$TIME" -max_len=65536 -timeout=20 \
    -rss_limit_mb=4096 -print_final_stats=1 ${JOBS:+-jobs=$JOBS -workers=$JOBS} "$CORPUS" \
    >"$BUILD/fuzz.log" 2>&1 || rc=$?
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)' \
    "$BUILD/fuzz.log" || tail -n 5 "$BUILD/fuzz.log"
[ $rc -eq 0 ] && echo "run_fuzz: no difference, no sanitizer report in ${TIME}s" ||
    { echo "run_fuzz: FAILED (rc $rc); see $BUILD/fuzz.log" >&2; tail -n 30 "$BUILD/fuzz.log" >&2; }
exit $rc
