#!/bin/sh
# turbo/zturbo/test.sh -- zturbo, the gzip-compatible command, against
# pristine zlib 1.3.2 and the system's gzip
#
# Builds zturbo ($TUR/cmd/zturbo.c, ours: src/cmd/zturbo.c; ZTURBO_SRC=FILE
# for another) twice: on zlib-turbo ($TUR/libz.a and zturbo.h) and, with
# -DZTURBO_PRISTINE, on pristine zlib 1.3.2 ($REF/libz.a), and checks:
# - bytes: for generated files (empty, tiny, text, incompressible, mixed)
#   and a few corpus files, at levels 1, 6 and 9, zlib-turbo's
#   `zturbo -n -T N` output for N = 1, 2, 4, 7 is the pristine build's
#   `zturbo -n -T1` output byte for byte, the system's `gzip -dc` gives the
#   input back from every output, nothing is written on stderr (no progress
#   bar off a terminal), and a second run gives the same bytes; also level
#   0 (-T3) and -T0 (one thread per CPU);
# - levels 10-12: gzip -dc and zturbo -d read them, the bytes are the same
#   for -T 1 and -T 3, level 12 is smaller than 9; the pristine build
#   refuses them;
# - the header: -n: no name, mtime 0, OS 3, XFL 4/0/2 at -1/-6/-9 (2 at
#   -12); -N (the default): the input's name and mtime; a pipe: neither;
# - decompression of `gzip -n` output at levels 1, 6, 9 and of multi-member
#   files (gzip's, zturbo's, an empty member), to stdout and to a file;
# - damaged input: trailing garbage (exit 2, no output file, input kept;
#   with -c the data and exit 2; zero padding accepted), truncated at 7
#   points, a CRC, a length and a data byte changed, not gzip, empty: exit
#   1, the message, no output file, input kept, no temporary file left;
# - files: -k, -c, -f, -r, -t, -S, -N on decompression, stdin and "-",
#   combined options (-9nkT4, -dc, --best, --level=, --threads=), an
#   existing output (exit 2, unchanged), a missing file, a directory, a FIFO
#   and a symbolic link, permission bits and mtime kept, bad options;
# - SIGTERM while compressing a file removes the temporary file;
# - the source is clean C89 (-std=c89 -pedantic -Werror), and compiles for
#   Windows when x86_64-w64-mingw32-gcc is there.
# Exit 0 pass, 1 fail, 77 skip (no libz.a, cc or gzip; the last line says
# why).  Environment: TUR, REF (zlib trees with libz.a; default
# build/zlib-turbo and build/zlib-1.3.2), CORPUS (default ../shared/corpus),
# CC, CFLAGS (default -O2), O (work folder, default build/zturbo-test).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TUR=${TUR:-$TOP/build/zlib-turbo}
REF=${REF:-$TOP/build/zlib-1.3.2}
# the program's source: ours, src/cmd/zturbo.c, as the patched tree has it
SRC=${ZTURBO_SRC:-$TUR/cmd/zturbo.c}
CORPUS=${CORPUS:-$TOP/../shared/corpus}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
O=${O:-$TOP/build/zturbo-test}
t0=$(date +%s)

for f in "$TUR/libz.a" "$TUR/zturbo.h" "$REF/libz.a"; do
    [ -f "$f" ] || { echo "SKIP: $f missing (make build first)"; exit 77; }
done
command -v gzip >/dev/null 2>&1 || { echo "SKIP: no gzip here"; exit 77; }
command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: no $CC here"; exit 77; }

rm -rf "$O"
mkdir -p "$O/in" "$O/out" "$O/w" || exit 1
ZT=$O/zturbo
ZR=$O/zturbo-pristine
W=$O/w
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# t DESC COMMAND...: passes when the command succeeds
t() {
    d=$1
    shift
    if "$@"; then ok; else bad "$d"; fi
}
# st WANT GOT DESC: the exit status GOT must be WANT
st() {
    if [ "$2" -eq "$1" ]; then ok; else bad "$3 (exit $2, want $1)"; fi
}
# hdr FILE: the first 10 bytes in hex
hdr() { od -An -tx1 -N10 "$1" | tr -d ' \n'; }
mtime() { date -r "$1" +%s; }
# shellcheck disable=SC2012  # ls -l: POSIX has no stat(1)
mode() { ls -ln "$1" | cut -c1-10; }
# no_temp DIR: no temporary file of zturbo's left there
no_temp() {
    for f in "$1"/.zturbo*; do [ ! -e "$f" ] || return 1; done
}
# has FILE TEXT: FILE contains TEXT
has() { grep -q "$2" "$1"; }

# -- build ------------------------------------------------------------------
# shellcheck disable=SC2086
if ! $CC $CFLAGS -I"$TUR" -o "$ZT" "$SRC" "$TUR/libz.a" \
        -pthread >"$O/build.log" 2>&1; then
    cat "$O/build.log"
    echo "FAIL: zturbo does not build on zlib-turbo"
    exit 1
fi
# shellcheck disable=SC2086
if ! $CC $CFLAGS -DZTURBO_PRISTINE -I"$REF" -o "$ZR" "$SRC" \
        "$REF/libz.a" >>"$O/build.log" 2>&1; then
    cat "$O/build.log"
    echo "FAIL: zturbo does not build on pristine zlib"
    exit 1
fi
if $CC -std=c89 -pedantic -Wall -Wextra -Werror -I"$TUR" -c \
        -o "$O/c89.o" "$SRC" >"$O/c89.log" 2>&1 &&
   $CC -std=c89 -pedantic -Wall -Wextra -Werror -DZTURBO_PRISTINE \
        -I"$REF" -c -o "$O/c89.o" "$SRC" >>"$O/c89.log" 2>&1; then
    ok
else
    cat "$O/c89.log"
    bad "zturbo.c is not clean C89 (-std=c89 -pedantic -Wall -Wextra)"
fi
if command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    if x86_64-w64-mingw32-gcc -Wall -Wextra -Werror -I"$TUR" -c \
            -o "$O/win.o" "$SRC" >"$O/win.log" 2>&1; then
        ok
    else
        cat "$O/win.log"
        bad "zturbo.c does not compile for Windows (mingw)"
    fi
else
    echo "SKIP: the Windows compile (no x86_64-w64-mingw32-gcc)"
fi

# -- inputs -----------------------------------------------------------------
I=$O/in
: >"$I/empty"
printf 'a' >"$I/one"
printf 'hello, hello, hello world\n' >"$I/tiny"
# text: words drawn by a fixed generator (the same file everywhere)
awk 'BEGIN {
    split("the of and to in a is that for it as was with be by on not he " \
          "zlib deflate inflate window match literal huffman block tree " \
          "turbo thread level byte identical output stream 1.3.2 gzip", w);
    n = 0; for (k in w) n++;
    x = 12345;
    for (i = 0; i < 200000; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        printf "%s%s", w[1 + int(x / 65536) % n], (i % 13 == 12) ? ".\n" : " ";
    }
}' >"$I/text"
# incompressible: text compressed (deterministic), then a 64 KiB run of zeros
"$ZR" -1 -n -c "$I/text" >"$I/random"
head -c 65536 /dev/zero >>"$I/random"
cat "$I/text" "$I/random" "$I/tiny" "$I/text" >"$I/mixed"
files="empty one tiny text random mixed"
for c in canterbury/kennedy.xls calgary/book1 large/world192.txt; do
    if [ -f "$CORPUS/$c" ]; then
        cp "$CORPUS/$c" "$I/" && files="$files $(basename "$c")"
    fi
done
[ -f "$I/world192.txt" ] || echo "SKIP: the corpus files ($CORPUS not found)"

# -- bytes: zlib-turbo, any -T == pristine -T1 ------------------------------
for f in $files; do
    for l in 1 6 9; do
        r=$O/out/$f.$l.ref.gz
        "$ZR" -n -$l -T1 -c "$I/$f" >"$r" 2>"$O/err"
        t "pristine -$l $f: stderr empty" test ! -s "$O/err"
        if gzip -dc "$r" | cmp -s - "$I/$f"; then ok; else
            bad "gzip -dc of pristine -$l $f"; fi
        for n in 1 2 4 7; do
            o=$O/out/$f.$l.T$n.gz
            "$ZT" -n -$l -T$n -c "$I/$f" >"$o" 2>"$O/err"
            t "zlib-turbo -$l -T$n $f: stderr empty" test ! -s "$O/err"
            t "zlib-turbo -n -$l -T$n $f == pristine -n -$l -T1" \
                cmp -s "$o" "$r"
            if gzip -dc "$o" | cmp -s - "$I/$f"; then ok; else
                bad "gzip -dc of zlib-turbo -$l -T$n $f"; fi
        done
    done
done
# level 0 (stored blocks) and -T0 (one thread per CPU)
"$ZR" -n -0 -c "$I/mixed" >"$O/l0.ref.gz"
"$ZT" -n -0 -T3 -c "$I/mixed" >"$O/l0.gz"
t "-0: the pristine build's bytes" cmp -s "$O/l0.gz" "$O/l0.ref.gz"
if gzip -dc "$O/l0.gz" | cmp -s - "$I/mixed"; then ok; else
    bad "gzip -dc of -0"; fi
"$ZT" -n -6 -T0 -c "$I/text" >"$O/t0.gz"
t "-T0: the pristine build's bytes" cmp -s "$O/t0.gz" "$O/out/text.6.ref.gz"
# stable across runs (-n, and -N with the same mtime)
"$ZT" -n -9 -T4 -c "$I/mixed" >"$O/again.gz"
t "a second run, the same bytes" cmp -s "$O/again.gz" "$O/out/mixed.9.T4.gz"
"$ZT" -T2 -c "$I/text" >"$O/n1.gz"
"$ZT" -T1 -c "$I/text" >"$O/n2.gz"
t "-N: the same bytes twice" cmp -s "$O/n1.gz" "$O/n2.gz"

# -- levels 10-12 -----------------------------------------------------------
head -c 600000 "$I/mixed" >"$I/mixed600k"
for l in 10 11 12; do
    "$ZT" -n -$l -T1 -c "$I/mixed600k" >"$O/out/o$l.T1.gz" 2>"$O/err"
    t "-$l: stderr empty" test ! -s "$O/err"
    "$ZT" -n --level=$l --threads=3 -c "$I/mixed600k" >"$O/out/o$l.T3.gz"
    t "-$l: the same bytes with -T1 and -T3" \
        cmp -s "$O/out/o$l.T1.gz" "$O/out/o$l.T3.gz"
    if gzip -dc "$O/out/o$l.T1.gz" | cmp -s - "$I/mixed600k"; then ok; else
        bad "gzip -dc of level $l"; fi
    if "$ZT" -dc "$O/out/o$l.T1.gz" | cmp -s - "$I/mixed600k"; then ok; else
        bad "zturbo -dc of level $l"; fi
done
"$ZT" -n -12 -c "$I/text" >"$O/text12.gz"
if gzip -dc "$O/text12.gz" | cmp -s - "$I/text"; then ok; else
    bad "gzip -dc of level 12 text"; fi
t "level 12 smaller than 9" test "$(wc -c <"$O/text12.gz")" -lt \
    "$(wc -c <"$O/out/text.9.ref.gz")"
"$ZR" -10 -c "$I/tiny" >/dev/null 2>"$O/err"
st 1 $? "the pristine build refuses -10"
t "the pristine build says -10 needs zlib-turbo" has "$O/err" zlib-turbo

# -- header -----------------------------------------------------------------
t "-n -1 header" test "$(hdr "$O/out/text.1.T1.gz")" = 1f8b0800000000000403
t "-n -6 header" test "$(hdr "$O/out/text.6.T1.gz")" = 1f8b0800000000000003
t "-n -9 header" test "$(hdr "$O/out/text.9.T1.gz")" = 1f8b0800000000000203
t "-n -12 header" test "$(hdr "$O/text12.gz")" = 1f8b0800000000000203
cp "$I/tiny" "$W/named"
TZ=UTC0 touch -t 200109090146.40 "$W/named"
"$ZT" -c "$W/named" >"$O/named.gz"
t "-N: FNAME, mtime 1000000000, OS 3" \
    test "$(hdr "$O/named.gz")" = 1f8b080800ca9a3b0003
t "-N: the name without its folder" \
    test "$(od -An -c -j10 -N6 "$O/named.gz" | tr -d ' \n')" = 'named\0'
"$ZT" -N -n -c "$W/named" | cmp -s - "$O/out/tiny.6.T1.gz"
t "-n after -N wins" test $? -eq 0
# shellcheck disable=SC2002  # a pipe, not a file, on stdin
cat "$W/named" | "$ZT" >"$O/pipe.gz"
t "a pipe: no name, mtime 0" test "$(hdr "$O/pipe.gz")" = 1f8b0800000000000003
"$ZT" <"$W/named" >"$O/stdin.gz"
t "stdin from a file: its mtime, no name" \
    test "$(hdr "$O/stdin.gz")" = 1f8b080000ca9a3b0003
gzip -dc "$O/named.gz" | cmp -s - "$I/tiny"
t "gzip reads the -N file" test $? -eq 0

# -- decompression ------------------------------------------------------------
for f in text random mixed one empty; do
    for l in 1 6 9; do
        gzip -n -$l -c "$I/$f" >"$O/g.gz"
        if "$ZT" -dc "$O/g.gz" | cmp -s - "$I/$f"; then ok; else
            bad "zturbo -dc of gzip -$l $f"; fi
    done
done
gzip -n -c "$I/text" >"$O/m1.gz"
"$ZT" -n -c "$I/empty" >"$O/m2.gz"
cat "$O/m1.gz" "$O/m2.gz" "$O/out/random.9.T4.gz" "$O/m1.gz" >"$W/multi.gz"
cat "$I/text" "$I/random" "$I/text" >"$O/multi"
if "$ZT" -dc "$W/multi.gz" | cmp -s - "$O/multi"; then ok; else
    bad "multi-member, -dc"; fi
"$ZT" -d "$W/multi.gz"
st 0 $? "multi-member to a file"
t "multi-member file's content" cmp -s "$W/multi" "$O/multi"
t "multi-member: input removed" test ! -e "$W/multi.gz"
"$ZT" -t "$O/out/mixed.9.T7.gz"
st 0 $? "-t on a good file"
"$ZT" -d <"$O/out/text.6.T2.gz" | cmp -s - "$I/text"
t "-d from stdin" test $? -eq 0
"$ZT" -dc - <"$O/out/text.6.T2.gz" | cmp -s - "$I/text"
t "-dc - from stdin" test $? -eq 0

# -- damaged input --------------------------------------------------------------
good=$O/out/text.6.ref.gz
size=$(wc -c <"$good")
# dmg NAME WANT-STATUS TEXT: zturbo -d on $W/NAME.gz
dmg() {
    "$ZT" -d "$W/$1.gz" 2>"$O/err"
    st "$2" $? "-d $1"
    t "-d $1: no output file" test ! -e "$W/$1"
    t "-d $1: input kept" test -f "$W/$1.gz"
    t "-d $1: says '$3'" has "$O/err" "$3"
    "$ZT" -t "$W/$1.gz" 2>/dev/null
    st "$2" $? "-t $1"
    t "-d $1: no temporary file" no_temp "$W"
}
cp "$good" "$W/garbage.gz" && printf 'garbage' >>"$W/garbage.gz"
dmg garbage 2 "trailing garbage"
"$ZT" -dc "$W/garbage.gz" >"$O/g.out" 2>"$O/err"
st 2 $? "-dc trailing garbage"
t "-dc trailing garbage: the data" cmp -s "$O/g.out" "$I/text"
t "-dc trailing garbage: the message" has "$O/err" \
    "decompression OK, trailing garbage ignored"
"$ZT" -qdc "$W/garbage.gz" >/dev/null 2>"$O/err"
st 2 $? "-qdc trailing garbage"
t "-q hides the warning" test ! -s "$O/err"
gzip -dc "$W/garbage.gz" >/dev/null 2>&1
g=$?
[ $g -eq 2 ] || echo "NOTE: this gzip exits $g on trailing garbage (GNU gzip 1.12: 2)"
"$ZT" -dcf "$W/garbage.gz" >"$O/g.out"
st 0 $? "-dcf copies trailing garbage through"
t "-dcf: data then garbage" test "$(tail -c 7 "$O/g.out")" = garbage
cp "$good" "$W/zeros.gz" && head -c 1000 /dev/zero >>"$W/zeros.gz"
"$ZT" -d "$W/zeros.gz"
st 0 $? "zero padding after a member"
t "zero padding: output" cmp -s "$W/zeros" "$I/text"
for cut in 1 2 5 10 $((size / 2)) $((size - 4)) $((size - 1)); do
    head -c $cut "$good" >"$W/cut$cut.gz"
    dmg cut$cut 1 "unexpected end of file"
done
cp "$good" "$W/one-more.gz" && printf 'x' >>"$W/one-more.gz"
dmg one-more 1 "unexpected end of file"
# change byte OFFSET (from the end when negative) of the good file
flip() {
    python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[int(sys.argv[3])] ^= 0x55
open(sys.argv[2], "wb").write(d)' "$good" "$W/$1.gz" "$2"
}
if command -v python3 >/dev/null 2>&1; then
    flip crc -8 && dmg crc 1 "crc error"
    flip len -2 && dmg len 1 "length error"
    flip data $((size / 3)) && dmg data 1 "invalid compressed data"
    flip method 2 && dmg method 1 "unknown method"
else
    echo "SKIP: the changed-byte cases (no python3)"
fi
printf 'not gzip at all\n' >"$W/plain.gz"
dmg plain 1 "not in gzip format"
: >"$W/void.gz"
dmg void 1 "unexpected end of file"
"$ZT" -dc "$W/plain.gz" >/dev/null 2>&1
st 1 $? "-dc not gzip"
"$ZT" -dcf "$W/plain.gz" | cmp -s - "$W/plain.gz"
t "-dcf copies non-gzip data" test $? -eq 0

# -- files ----------------------------------------------------------------------
cd "$W" || exit 1
rm -rf ./* ./.zturbo* 2>/dev/null
cp "$I/text" f && chmod 640 f && TZ=UTC0 touch -t 200109090146.40 f
"$ZT" f
st 0 $? "compress f"
t "f removed" test ! -e f
t "f.gz made" test -f f.gz
t "f.gz: the input's mode" test "$(mode f.gz)" = "-rw-r-----"
t "f.gz: the input's mtime" test "$(mtime f.gz)" = 1000000000
if gzip -dc f.gz | cmp -s - "$I/text"; then ok; else bad "gzip -dc f.gz"; fi
TZ=UTC0 touch -t 201701010000 f.gz      # 1483228800
"$ZT" -d f.gz
st 0 $? "decompress f.gz"
t "f.gz removed" test ! -e f.gz
t "f: content" cmp -s f "$I/text"
t "f: mode kept" test "$(mode f)" = "-rw-r-----"
t "f: the .gz file's mtime (-n is the default)" test "$(mtime f)" = 1483228800
"$ZT" -k f
t "-k keeps f" test -f f
t "-k: f.gz made" test -f f.gz
cp f.gz f.gz.before
echo other >f
"$ZT" f 2>"$O/err"
st 2 $? "compress with the output there"
t "output there: not overwritten" cmp -s f.gz f.gz.before
t "output there: input kept" test -f f
t "output there: says so" has "$O/err" "already exists"
"$ZT" -f f
st 0 $? "-f overwrites"
t "-f: the new content" test "$("$ZT" -dc f.gz)" = other
t "-f: input removed" test ! -e f
echo kept >f
"$ZT" -c f >c.gz
t "-c: input kept" test -f f
t "-c: no f.gz.. written" test "$("$ZT" -dc c.gz)" = kept
t "-c: f.gz untouched" test "$("$ZT" -dc f.gz)" = other
"$ZT" -dc f.gz f.gz >two
t "-dc of two files" test "$(cat two)" = "other
other"
mv f.gz g.gz
TZ=UTC0 touch -t 201701010000 g.gz
cp "$I/tiny" named && TZ=UTC0 touch -t 200109090146.40 named
"$ZT" named && mv named.gz renamed.gz
"$ZT" -dN renamed.gz
st 0 $? "-dN"
t "-dN: the stored name" cmp -s named "$I/tiny"
t "-dN: the stored mtime" test "$(mtime named)" = 1000000000
t "-dN: renamed.gz removed" test ! -e renamed.gz
"$ZT" -d g.gz
t "-d without -N: the .gz file's name" test -f g
"$ZT" -S .zz f
t "-S .zz" test -f f.zz
"$ZT" -d -S .zz f.zz
t "-d -S .zz" test "$(cat f)" = kept
"$ZT" -S '' f 2>/dev/null
st 1 $? "-S ''"
cp "$I/text" k
"$ZT" -9nkT4 k
t "-9nkT4: input kept" test -f k
t "-9nkT4 == pristine -9 -n" cmp -s k.gz "$O/out/text.9.ref.gz"
rm -f k.gz
"$ZT" --best --no-name --keep --threads 2 k
t "--best --no-name --threads 2" cmp -s k.gz "$O/out/text.9.ref.gz"
"$ZT" -fn --fast k
t "--fast" cmp -s k.gz "$O/out/text.1.ref.gz"
"$ZT" -dc k.gz | cmp -s - "$I/text"
t "-dc combined" test $? -eq 0
"$ZT" -dfk k.gz
t "-dfk" test -f k.gz
t "-dfk: content" cmp -s k "$I/text"
"$ZT" -v -k -f k 2>"$O/err"
t "-v: the ratio and the name" has "$O/err" "% -- created k.gz"
"$ZR" -n -T4 -c k 2>"$O/err" | cmp -s - "$O/out/text.6.ref.gz"
t "the pristine build takes -T4 (one thread, the same bytes)" test $? -eq 0
t "the pristine build: -T4 silently" test ! -s "$O/err"
mkdir -p tree/sub
cp "$I/tiny" tree/a && cp "$I/text" tree/sub/b && cp "$O/m1.gz" tree/c.gz
"$ZT" -r tree
st 0 $? "-r"
t "-r: tree/a.gz" test -f tree/a.gz -a ! -e tree/a
t "-r: tree/sub/b.gz" test -f tree/sub/b.gz -a ! -e tree/sub/b
t "-r: tree/c.gz left alone" cmp -s tree/c.gz "$O/m1.gz"
"$ZT" -tr tree
st 0 $? "-tr"
"$ZT" -dr tree
t "-dr" cmp -s tree/sub/b "$I/text"
t "-dr: tree/c.gz decompressed" cmp -s tree/c "$I/text"
"$ZT" tree 2>"$O/err"
st 2 $? "a directory without -r"
t "a directory: says so" has "$O/err" directory
"$ZT" missing 2>"$O/err"
st 1 $? "a missing file"
t "a missing file: says so" has "$O/err" "No such file"
mkfifo fifo 2>/dev/null && {
    "$ZT" fifo 2>"$O/err"
    st 2 $? "a FIFO"
    t "a FIFO: says so" has "$O/err" "not a directory or a regular file"
}
echo linked >target
ln -s target link
"$ZT" link 2>"$O/err"
st 1 $? "a symbolic link without -f (an error, as gzip 1.12)"
t "a symbolic link: nothing made" test ! -e link.gz
t "-c follows a symbolic link" test "$("$ZT" -c link | "$ZT" -d)" = linked
ln target hard
"$ZT" hard 2>/dev/null
st 2 $? "a file with another link"
"$ZT" -x 2>/dev/null
st 1 $? "an invalid option"
"$ZT" -13 2>/dev/null
st 1 $? "level 13"
"$ZT" -T 999 2>/dev/null
st 1 $? "-T 999"
"$ZT" --level=x 2>/dev/null
st 1 $? "--level=x"
"$ZT" -h >"$O/help"
st 0 $? "-h"
t "-h: usage" has "$O/help" Usage
"$ZT" -V >"$O/version"
st 0 $? "-V"
t "-V: zlib-turbo" has "$O/version" zlib-turbo
"$ZT" --vers >/dev/null
st 0 $? "a long option's unique prefix"
t "no temporary file left" no_temp "$W"

# -- SIGTERM while compressing ----------------------------------------------------
for _ in 1 2 3 4; do cat "$I/mixed"; done >big
"$ZT" -12 -T1 big &
pid=$!
n=0
while [ $n -lt 40 ] && no_temp .; do sleep 0.05; n=$((n + 1)); done
if no_temp .; then
    wait $pid
    bad "SIGTERM: the temporary file was never seen"
else
    kill -TERM $pid
    { wait $pid; } 2>/dev/null          # no "Terminated" from the shell
    st 143 $? "SIGTERM: killed by it"
    t "SIGTERM: temporary file removed" no_temp .
    t "SIGTERM: no big.gz" test ! -e big.gz
    t "SIGTERM: big kept" test -f big
fi
cd "$TOP" || exit 1

secs=$(($(date +%s) - t0))
echo "zturbo: $pass passed, $fail failed ($secs s)"
[ $fail -eq 0 ]
