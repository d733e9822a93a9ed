#!/bin/sh
# env_threads.sh -- ZLIB_TURBO_THREADS in two unmodified programs from Debian:
# a Python script (Debian's /usr/bin/python3) writing a large .gz with the
# gzip module, and `git repack -a -d -F` (git gc's packing, every object
# compressed again) on a repository holding big files.  Each runs on
# pristine zlib 1.3.2, on zlib-turbo, and on zlib-turbo with
# ZLIB_TURBO_THREADS=N, all through LD_LIBRARY_PATH, interleaved, RUNS times;
# it prints the median wall and CPU (user+sys) seconds of each, the ratios to
# pristine, and the sha256 of every output (they must all be equal: the
# script fails otherwise).
#
# usage: turbo/bench/env_threads.sh [REF_LIBDIR [TUR_LIBDIR]]
#   defaults build/zlib-1.3.2 and build/zlib-turbo (each with libz.so.1);
#   RUNS (5), N (2), LEVEL (6: python's compresslevel and git's
#   pack.compression), FILES (default: the mixed set's text and tar files
#   from ../shared/corpus, else 24 MiB generated); W (work folder).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
REF=$(cd "${1:-$TOP/build/zlib-1.3.2}" && pwd)
TUR=$(cd "${2:-$TOP/build/zlib-turbo}" && pwd)
RUNS=${RUNS:-5}
N=${N:-2}
LEVEL=${LEVEL:-6}
PY=/usr/bin/python3
W=${W:-$(mktemp -d)}
mkdir -p "$W"
for l in "$REF" "$TUR"; do
    [ -e "$l/libz.so.1" ] || { echo "env_threads: no $l/libz.so.1" >&2; exit 1; }
done
command -v git >/dev/null && [ -x "$PY" ] ||
    { echo "env_threads: needs git and $PY (Debian's python3)" >&2; exit 1; }

C="$TOP/../shared/corpus/mixed"
if [ -z "${FILES:-}" ]; then
    if [ -d "$C" ]; then
        FILES="$C/gcide-16m.txt $C/gas-src.tar $C/gir-xml.tar $C/binutils-elf.tar"
    else
        "$PY" -c '
import random, sys
r = random.Random(2026)
words = [bytes(r.choice(b"etaoinshrdlucmfw") for _ in range(r.randint(2, 9))) for _ in range(5000)]
with open(sys.argv[1], "wb") as f:
    n = 0
    while n < 24 << 20:
        line = b" ".join(r.choice(words) for _ in range(12)) + b"\n"
        f.write(line); n += len(line)
' "$W/generated.txt"
        FILES="$W/generated.txt"
    fi
fi
cat $FILES >"$W/input"
SIZE=$(wc -c <"$W/input")

# the library a run loads: zlib-turbo's symbol must be there
LD_LIBRARY_PATH="$TUR" "$PY" -c '
import ctypes, zlib
ctypes.CDLL("libz.so.1").zlibTurboVersion
' || { echo "env_threads: zlib-turbo's libz.so.1 is not the one loaded" >&2; exit 1; }

# the repository: every file in one commit (loose objects at git's level 1)
G="$W/repo"
rm -rf "$G"
git init -q "$G"
for f in $FILES; do cp "$f" "$G/"; done
git -C "$G" add -A
git -C "$G" -c user.name=bench -c user.email=bench@invalid commit -q -m files

now() { "$PY" -c 'import time; print("%.6f" % time.time())'; }
# one timed run: LABEL LIBDIR ENV command...; appends "label wall cpu sha"
timed() {
    label=$1 lib=$2 env=$3
    shift 3
    t0=$(now)
    env -u ZLIB_TURBO_THREADS $env LD_LIBRARY_PATH="$lib" /usr/bin/time -f '%U %S' -o "$W/time" "$@"
    t1=$(now)
    cpu=$(awk '{print $1 + $2}' "$W/time")
    echo "$label $("$PY" -c "print('%.3f' % ($t1 - $t0))") $cpu"
}
py_gz() {
    timed "$@" "$PY" -c '
import gzip, sys
data = open(sys.argv[1], "rb").read()
with open(sys.argv[2], "wb") as out:
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=int(sys.argv[3]), mtime=0) as f:
        f.write(data)
' "$W/input" "$W/out.gz" "$LEVEL"
    sha256sum <"$W/out.gz" | cut -c1-16 >>"$W/sha-python"
}
git_pack() {
    timed "$@" git -C "$G" -c pack.threads=1 -c pack.compression="$LEVEL" \
        repack -a -d -F -q
    cat "$G"/.git/objects/pack/*.pack | sha256sum | cut -c1-16 >>"$W/sha-git"
}
: >"$W/sha-python"
: >"$W/sha-git"
: >"$W/times.python"
: >"$W/times.git"
i=0
while [ $i -lt "$RUNS" ]; do
    py_gz pristine "$REF" ZT_NONE=1 >>"$W/times.python"
    py_gz turbo "$TUR" ZT_NONE=1 >>"$W/times.python"
    py_gz "turbo+T$N" "$TUR" ZLIB_TURBO_THREADS=$N >>"$W/times.python"
    git_pack pristine "$REF" ZT_NONE=1 >>"$W/times.git"
    git_pack turbo "$TUR" ZT_NONE=1 >>"$W/times.git"
    git_pack "turbo+T$N" "$TUR" ZLIB_TURBO_THREADS=$N >>"$W/times.git"
    i=$((i + 1))
done

echo "env_threads: $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $SIZE bytes ($(for f in $FILES; do basename "$f"; done | tr '\n' ' ')), level $LEVEL, $RUNS runs each, interleaved"
echo "python: $("$PY" --version 2>&1) ($(dpkg-query -W -f='${Version}' python3.11 2>/dev/null || echo '?')), git $(git --version | cut -d' ' -f3) ($(dpkg-query -W -f='${Version}' git 2>/dev/null || echo '?'))"
"$PY" - "$W" <<'EOF'
import statistics, sys
w = sys.argv[1]
fail = 0
for prog in ("python", "git"):
    rows = {}
    for line in open(f"{w}/times.{prog}"):
        lab, wall, cpu = line.split()
        rows.setdefault(lab, []).append((float(wall), float(cpu)))
    base = rows["pristine"]
    bw = statistics.median(x[0] for x in base)
    bc = statistics.median(x[1] for x in base)
    print(f"{prog}: {'':>12} {'wall s':>8} {'cpu s':>8} {'speed vs pristine (wall)':>26}")
    for lab, v in rows.items():
        mw = statistics.median(x[0] for x in v)
        mc = statistics.median(x[1] for x in v)
        print(f"{prog}: {lab:>12} {mw:8.2f} {mc:8.2f} {bw / mw:25.2f}x")
    shas = set(open(f"{w}/sha-{prog}").read().split())
    print(f"{prog}: output sha256 {' '.join(sorted(shas))} ({'all equal' if len(shas) == 1 else 'DIFFER'})")
    fail |= len(shas) != 1
sys.exit(fail)
EOF
