#!/bin/bash
# inflate_threads.sh [OPTIONS] -- decompression of gzip files: zlib-turbo's
# threaded inflate beside the anchors, side by side in one run
#
# Commands, each run on every file of a set, the set's time summed (the
# commands' wall time from start to exit; the library drivers' own timing
# of the inflate() call, the best of three in one process), the commands
# interleaved inside each round (their order rotated from round to round),
# medians over the rounds:
#   gzip -dc, pigz -dc, igzip -dc (Debian package isal; skipped if absent),
#   rapidgzip -dc -P N (RAPIDGZIP=path, built by turbo/bench/rapidgzip-build.sh;
#   skipped if not given), zturbo -dc -T N (N from --threads), and one
#   inflate(Z_FINISH) call over each whole file (turbo/bench/
#   inflate_threads_call.c) with pristine zlib 1.3.2 and with zlib-turbo at
#   each thread count.
# Every command's output is checked against gzip's (size and CRC-32); any
# difference ends the run with status 2.
#
#   turbo/bench/inflate_threads.sh [OPTIONS]
#
# Options (defaults in brackets):
#   --sets=LIST     comma list of sets: joined (the mixed set of
#                   ../shared/corpus joined into one file, 109 MB, gzip -6)
#                   and files (every file of ../shared/corpus/{canterbury,
#                   calgary,large,mixed} compressed alone, gzip -6); or a path
#                   to one .gz file [joined,files]
#   --threads=LIST  thread counts for zturbo, rapidgzip and the library [1,2]
#   --rounds=N      [7]
#   --out=PREFIX    also write PREFIX.txt
# Environment: RAPIDGZIP (path of the rapidgzip binary), REF and TUR (zlib
# trees) [build/zlib-1.3.2, build/zlib-turbo], BUILD [build/inflate_threads],
# CORPUS [../shared/corpus].
#
# Threads need idle cores: the figures mean something only on a machine with
# nothing else running (the header prints the load average before and after).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SETS=joined,files THREADS=1,2 ROUNDS=7 OUT=
for a in "$@"; do
    case $a in
        --sets=*) SETS=${a#*=} ;;
        --threads=*) THREADS=${a#*=} ;;
        --rounds=*) ROUNDS=${a#*=} ;;
        --out=*) OUT=${a#*=} ;;
        *) sed -n '2,/^set -euo/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
    esac
done
REF=${REF:-$TOP/build/zlib-1.3.2}
TUR=${TUR:-$TOP/build/zlib-turbo}
BUILD=${BUILD:-$TOP/build/inflate_threads}
CORPUS=${CORPUS:-$TOP/../shared/corpus}
mkdir -p "$BUILD"
[ -z "$OUT" ] || exec > >(tee "$OUT.txt")

# the drivers and the command
cc -O2 -DTURBO -I"$TUR" "$TOP/turbo/bench/inflate_threads_call.c" "$TUR/libz.a" \
    -lpthread -o "$BUILD/call-tur"
cc -O2 -I"$REF" "$TOP/turbo/bench/inflate_threads_call.c" "$REF/libz.a" \
    -o "$BUILD/call-ref"
ZTURBO=$TUR/zturbo
[ -x "$ZTURBO" ] || { echo "inflate_threads: no $ZTURBO (make build)" >&2; exit 2; }

# the sets: NAME and its .gz files
declare -A FILES
for s in ${SETS//,/ }; do
    case $s in
    joined)
        [ -d "$CORPUS/mixed" ] || { echo "inflate_threads: no $CORPUS/mixed" >&2; exit 2; }
        if [ ! -s "$BUILD/mixed-joined.gz" ]; then
            find "$CORPUS/mixed" -maxdepth 1 -type f | LC_ALL=C sort | xargs cat |
                gzip -6 -n > "$BUILD/mixed-joined.gz"
        fi
        FILES[joined]=$BUILD/mixed-joined.gz ;;
    files)
        mkdir -p "$BUILD/files"
        list=
        for d in canterbury calgary large mixed; do
            for f in $(find "$CORPUS/$d" -maxdepth 1 -type f | LC_ALL=C sort); do
                g=$BUILD/files/$d-$(basename "$f").gz
                [ -s "$g" ] || gzip -6 -n -c "$f" > "$g"
                list="$list $g"
            done
        done
        [ -n "$list" ] || { echo "inflate_threads: no corpus files" >&2; exit 2; }
        FILES[files]=$list ;;
    *)
        [ -f "$s" ] || { echo "inflate_threads: no such set or file: $s" >&2; exit 2; }
        FILES[$(basename "$s")]=$s ;;
    esac
done

# the commands: NAME and a command line (FILE stands for the file)
declare -a NAMES CMDS
add() { NAMES+=("$1"); CMDS+=("$2"); }
add "gzip -dc" "gzip -dc FILE"
if command -v pigz >/dev/null; then add "pigz -dc" "pigz -dc FILE"; fi
if command -v igzip >/dev/null; then add "igzip -dc" "igzip -dc FILE"; fi
add "zlib 1.3.2 inflate()" "$BUILD/call-ref FILE 1 3"
for t in ${THREADS//,/ }; do
    add "zlib-turbo inflate() T$t" "$BUILD/call-tur FILE $t 3"
    add "zturbo -dc -T$t" "$ZTURBO -dc -T$t FILE"
    if [ -n "${RAPIDGZIP:-}" ]; then add "rapidgzip -dc -P$t" "$RAPIDGZIP -d -c -P $t FILE"; fi
done

# a command's output: size and CRC-32 (the library drivers print theirs)
check() {
    local name=$1 cmd=$2 f=$3 want=$4 got
    if [[ $cmd == "$BUILD"/call-* ]]; then
        got=$(${cmd//FILE/$f} | sed -n 2p)
    else
        got=$(${cmd//FILE/$f} | python3 -c 'import sys,zlib; d=sys.stdin.buffer.read(); print(len(d), "%08x" % zlib.crc32(d))')
    fi
    [ "$got" = "$want" ] || { echo "inflate_threads: $name on $f: $got, gzip: $want" >&2; exit 2; }
}

echo "# inflate_threads.sh $*"
echo "# machine: $(uname -n), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "# compiler: $(cc --version | head -1); flags -O2; commit $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for s in "${!FILES[@]}"; do
    files=${FILES[$s]}
    bytes=0
    declare -A WANT=()
    for f in $files; do
        WANT[$f]=$(gzip -dc "$f" | python3 -c 'import sys,zlib; d=sys.stdin.buffer.read(); print(len(d), "%08x" % zlib.crc32(d))')
        bytes=$((bytes + ${WANT[$f]%% *}))
    done
    for i in "${!NAMES[@]}"; do
        for f in $files; do check "${NAMES[$i]}" "${CMDS[$i]}" "$f" "${WANT[$f]}"; done
    done
    declare -A T=() MED=()
    n=${#NAMES[@]}
    for ((r = 0; r < ROUNDS; r++)); do
        for ((j = 0; j < n; j++)); do
            i=$(( (j + r) % n ))
            if [[ ${CMDS[$i]} == "$BUILD"/call-* ]]; then
                # the drivers time their inflate() call themselves (reading
                # the file and touching the output buffer are left out):
                # the best of their three calls, warm
                t=0
                for f in $files; do
                    b=$(${CMDS[$i]//FILE/$f} | sed -n 1p | tr ' ' '\n' | sort -g | head -1)
                    t=$(echo "$t + $b" | bc -l)
                done
            else
                t0=$(date +%s.%N)
                for f in $files; do ${CMDS[$i]//FILE/$f} >/dev/null; done
                t1=$(date +%s.%N)
                t=$(echo "$t1 - $t0" | bc -l)
            fi
            T[$i]="${T[$i]:-} $t"
        done
    done
    echo
    echo "## set $s: $(echo $files | wc -w) file(s), $bytes bytes out; $ROUNDS rounds, medians"
    printf '%-28s %10s %9s %9s %9s\n' command seconds "MB/s" "/gzip" "/zturbo-T1"
    base_g= base_z=
    for i in "${!NAMES[@]}"; do
        m=$(printf '%s\n' ${T[$i]} | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
        MED[$i]=$m
        [ "${NAMES[$i]}" != "gzip -dc" ] || base_g=$m
        [ "${NAMES[$i]}" != "zturbo -dc -T1" ] || base_z=$m
    done
    for i in "${!NAMES[@]}"; do
        m=${MED[$i]}
        printf '%-28s %10.3f %9.0f %9.2f %9s\n' "${NAMES[$i]}" "$m" "$(echo "$bytes / $m / 1000000" | bc -l)" \
            "$(echo "$base_g / $m" | bc -l)" "$( [ -n "$base_z" ] && printf '%.2f' "$(echo "$base_z / $m" | bc -l)" || echo -)"
    done
done
echo
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
