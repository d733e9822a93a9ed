#!/bin/sh
# turbo/zturbo/vs-gzip.sh -- zturbo against GNU gzip 1.12, case by case
#
#     sh turbo/zturbo/vs-gzip.sh [ZTURBO]      (default build/zlib-turbo/zturbo)
#
# A differential test: for each case, the same fresh inputs are set up in
# two folders, gzip (GZIP_PROG, default /bin/gzip) runs in one and zturbo in
# the other with the same arguments, and the script compares
# - the exit status;
# - the kind of message on stderr: none, a warning or an error (loosely, by a
#   few words; never the wording, since the program names differ);
# - standard output, where the case writes there: byte for byte after -dc,
#   -t and -dcf, and after decompressing both with gzip when it is
#   compressed (-c, stdin to stdout: zlib's bytes are not gzip's); for -l
#   only the exit status counts;
# - the files left behind: names, type (file, link and its target, fifo,
#   directory), mode and link count, mtime, and the content (decompressed
#   by gzip when it is gzip data, with the header's flags, mtime and name).
# The cases: compress and decompress a file, -k, -c, -f, an existing output
# with and without -f, -t and -d on good, corrupt, truncated, CRC-damaged,
# trailing-garbage, zero-padded, multi-member, empty and non-gzip files,
# missing files, a symbolic link, a file with two hard links, a FIFO and
# /dev/null, setuid, setgid and sticky files, a name too long, a directory
# with and without -r, -S, unknown and other known suffixes, -n/-N/-dN
# (stored names with a directory, or the input's own), stdin to stdout, -c
# with two files, a terminal on stdout or stdin (through script(1), package
# bsdutils), and what gzip has and zturbo not (-l, -L, --rsyncable, GZIP).
# Every run is under timeout and writes to files: no status lost in a pipe.
#
# Prints `same  NAME`, `DIFF  NAME: what` or `SKIP  NAME: why` per case,
# then the counts.  turbo/zturbo/vs-gzip-divergences.txt is the allowlist:
# a line `NAME  G/Z  deliberate  ...` (G and Z the exit statuses of gzip
# and zturbo) accepts that case's difference; `bug` lines are listed but
# not accepted.  Exit 0 when every difference is accepted, 1 otherwise, 77
# when gzip, zturbo or timeout is missing (or no case could run).  VERBOSE=1 shows both stderrs of
# each unlisted difference.  Small: one process at a time, 31 KB of data,
# about 10 s.
# shellcheck disable=SC2016,SC2012  # the cases' "$P" expands in sh -c; ls -l
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
ZT=${1:-$TOP/build/zlib-turbo/zturbo}
GZ=${GZIP_PROG:-/bin/gzip}
LIST=$HERE/vs-gzip-divergences.txt
case $ZT in /*) ;; *) ZT=$(pwd)/$ZT ;; esac

[ -x "$GZ" ] || { echo "SKIP: no gzip at $GZ"; exit 77; }
if [ ! -f "$ZT" ] || [ ! -x "$ZT" ]; then
    echo "SKIP: no zturbo at $ZT"
    exit 77
fi
command -v timeout >/dev/null 2>&1 || { echo "SKIP: no timeout(1)"; exit 77; }
# script(1) and a pty for it
HAVE_SCRIPT=0
script -qec 'test -t 0 && test -t 1' /dev/null </dev/null >/dev/null 2>&1 &&
    HAVE_SCRIPT=1
# no GZIP options from the environment, the same messages and times
unset GZIP
LC_ALL=C TZ=UTC0 SHELL=/bin/sh
export LC_ALL TZ SHELL

T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
I=$T/in
mkdir "$I" || exit 1
same=0 differ=0 unlisted=0 skipped=0
: >"$T/results"

# -- inputs: made once, copied fresh into both folders for every case -------
(
    cd "$I" || exit 1
    awk 'BEGIN {
        split("gzip zlib deflate inflate member header trailer crc the of " \
              "and to a is window match literal block", w);
        x = 7;
        for (i = 0; i < 6000; i++) {
            x = (x * 1103515245 + 12345) % 2147483648;
            printf "%s%s", w[1 + int(x / 65536) % 19], i % 11 == 10 ? "\n" : " ";
        }
    }' >f
    printf 'a second, shorter file\n' >g
    : >empty
    "$GZ" -n -c f >f.gz && "$GZ" -n -c g >g.gz || exit 1
    size=$(wc -c <f.gz)
    head -c $((size / 2)) f.gz >trunc.gz
    # a byte of the deflate data changed, then the CRC changed
    head -c $((size / 3)) f.gz >bad.gz
    printf '\377' >>bad.gz
    tail -c +$((size / 3 + 2)) f.gz >>bad.gz
    head -c $((size - 8)) f.gz >crc.gz
    printf 'CRC!' >>crc.gz
    tail -c 4 f.gz >>crc.gz
    cat f.gz >garbage.gz && printf 'garbage\n' >>garbage.gz
    cat f.gz >zeros.gz && head -c 1000 /dev/zero >>zeros.gz
    cat f.gz >onebyte.gz && printf 'x' >>onebyte.gz
    cat f.gz g.gz >multi.gz
    printf 'this is not gzip data\n' >notgz.gz
    # a stored name and mtime: "orig", 1000000000, in a file named renamed.gz
    cp f orig && touch -t 200109090146.40 orig && "$GZ" -N orig &&
        mv orig.gz renamed.gz || exit 1
    # stored names with a directory, and the input's own name
    printf '\037\213\010\010\000\312\232\073\000\003../evil\000' >dotdot.gz
    tail -c +11 f.gz >>dotdot.gz
    printf '\037\213\010\010\000\312\232\073\000\003sub/evil\000' >subdir.gz
    tail -c +11 f.gz >>subdir.gz
    cp g self.gz && "$GZ" -N -c self.gz >self.tmp && mv self.tmp self.gz ||
        exit 1
    for x in *; do touch -t 202001020304.05 "$x" || exit 1; done
) || { echo "SKIP: cannot make the inputs"; exit 77; }

# a name of 253 bytes: NAME.gz is one too long for most file systems
LONG=$(printf '%0253d' 0)
export LONG

# put NAME [AS]: a fresh copy of input NAME here, as AS
put() { cp -p "$I/$1" "./${2:-$1}"; }

# -- what a run leaves ---------------------------------------------------
# kind FILE: the kind of message in FILE: - (none), W (warning), E (error)
kind() {
    if [ ! -s "$1" ]; then echo -
    elif grep -Eiq 'warning|ignored|unchanged|not overwritten|garbage' "$1"
    then echo W
    else echo E
    fi
}
# key FILE: the content of a regular file; gzip data by what it holds
key() {
    if "$GZ" -dc <"$1" >"$T/dec" 2>/dev/null; then
        h=$(od -An -tu1 -j3 -N5 "$1" | tr -s ' \n' '  ')
        n=
        if [ $(($(od -An -tu1 -j3 -N1 "$1") & 8)) -ne 0 ]; then
            n=$(dd if="$1" bs=1 skip=10 count=255 2>/dev/null |
                tr '\0' '\n' | sed -n 1p)
        fi
        echo "gzip of [$(cksum <"$T/dec")] flg+mtime[$h] name[$n]"
    else
        echo "bytes [$(cksum <"$1")]"
    fi
}
# list DIR: every path under DIR with its type and what it holds
list() {
    (cd "$1" && find . ! -name . -print) >"$T/paths" || echo "find failed"
    sort "$T/paths" >"$T/paths.s"
    while IFS= read -r p; do
        q=$1/$p
        if [ -h "$q" ]; then
            echo "$p link -> $(ls -ld "$q" | sed 's/.* -> //')"
        elif [ -d "$q" ]; then
            echo "$p directory"
        elif [ -p "$q" ]; then
            echo "$p fifo"
        elif [ -f "$q" ]; then
            echo "$p file $(ls -ldn "$q" | awk '{print $1, $2}')" \
                "mtime $(date -r "$q" +%s) $(key "$q")"
        else
            echo "$p other"
        fi
    done <"$T/paths.s"
}
# fdiff GFILES ZFILES: the paths whose listings differ, and how
fdiff() {
    awk 'function s(p) { return length(p) > 40 ? substr(p, 1, 37) "..." : p }
        NR == FNR { g[$1] = $0; next }
        { z[$1] = $0
          if (!($1 in g)) { printf " %s (zturbo only)", s($1); next }
          if (g[$1] == $0) next
          split(g[$1], a); n = split($0, b)
          for (i = 2; i <= n && a[i] == b[i]; i++) ;
          w = i == 2 ? "type" : i == 3 ? "mode" : i == 4 ? "links" : "data"
          if (a[2] == "file" && i > 4) w = i <= 6 ? "mtime" : "content"
          printf " %s (%s)", s($1), w }
        END { for (p in g) if (!(p in z)) printf " %s (gzip only)", s(p) }' \
        "$1" "$2"
}
# listed NAME STATUS: the allowlist accepts NAME's difference
listed() {
    [ -f "$LIST" ] && awk -v n="$1" -v s="$2" \
        '$1 == n && $2 == s && $3 == "deliberate" { f = 1 } END { exit !f }' \
        "$LIST"
}

# c NAME OUT SETUP CMD: one case.  SETUP runs (eval) in each fresh folder,
# then CMD runs there under sh -c, with "$P" the program, stdin /dev/null
# unless CMD redirects it, stdout and stderr to files outside the folder.
# OUT says what stdout is: none (only whether it is empty), raw (bytes), gz
# (compressed: compared after gzip -dc, with the header's flags, mtime and
# name), tty (the terminal's output, merged with stderr: its kind), status
# (-l: only the exit status counts).  A run past 20 s exits 124.
c() {
    name=$1 out=$2 setup=$3 cmd=$4
    for s in g z; do
        rm -rf "${T:?}/$s" && mkdir -p "$T/$s/w" || exit 1
        if ! (cd "$T/$s/w" && eval "$setup") >"$T/setup.err" 2>&1; then
            echo "SKIP  $name: the setup failed: $(head -n 1 "$T/setup.err")"
            skipped=$((skipped + 1))
            echo "$name skipped" >>"$T/results"
            return
        fi
    done
    (cd "$T/g/w" && P=$GZ timeout 20 sh -c "$cmd") \
        </dev/null >"$T/g/out" 2>"$T/g/err"
    gs=$?
    (cd "$T/z/w" && P=$ZT timeout 20 sh -c "$cmd") \
        </dev/null >"$T/z/out" 2>"$T/z/err"
    zs=$?
    what=
    [ $gs -eq $zs ] || what="$what; exit $gs/$zs"
    [ $gs -ne 124 ] && [ $zs -ne 124 ] || what="$what; timed out"
    gk=$(kind "$T/g/err") zk=$(kind "$T/z/err")
    if [ "$out" = tty ]; then
        gk=$gk$(kind "$T/g/out") zk=$zk$(kind "$T/z/out")
    fi
    [ "$out" = status ] || [ "$gk" = "$zk" ] || what="$what; stderr $gk/$zk"
    # stdout: written by gzip (g), zturbo (z), both (gz) or neither
    e=$([ -s "$T/g/out" ] && echo g)$([ -s "$T/z/out" ] && echo z)
    case $out:$e in
        raw:*) cmp -s "$T/g/out" "$T/z/out" || what="$what; stdout bytes" ;;
        gz:gz) [ "$(key "$T/g/out")" = "$(key "$T/z/out")" ] ||
            what="$what; stdout: $(key "$T/g/out") / $(key "$T/z/out")" ;;
        gz:? | none:?) what="$what; stdout empty in one" ;;
    esac
    list "$T/g/w" >"$T/g/files"
    list "$T/z/w" >"$T/z/files"
    if ! cmp -s "$T/g/files" "$T/z/files"; then
        what="$what; files:$(fdiff "$T/g/files" "$T/z/files")"
    fi
    if [ -z "$what" ]; then
        echo "same  $name"
        echo "$name same" >>"$T/results"
        same=$((same + 1))
        return
    fi
    differ=$((differ + 1))
    echo "$name diff" >>"$T/results"
    if listed "$name" "$gs/$zs"; then
        echo "DIFF  $name: ${what#; } (listed as deliberate)"
    else
        echo "DIFF  $name: ${what#; }"
        unlisted=$((unlisted + 1))
        [ -z "${VERBOSE:-}" ] || {
            echo "      gzip: $(head -c 300 "$T/g/err")"
            echo "      zturbo: $(head -c 300 "$T/z/err")"
        }
    fi
}

# -- the cases -------------------------------------------------------------
# compress, decompress, -k, -c, -f
c compress none 'put f' '"$P" f'
c compress-empty none 'put empty' '"$P" empty'
c decompress none 'put f.gz' '"$P" -d f.gz'
c keep none 'put f' '"$P" -k f'
c keep-d none 'put f.gz' '"$P" -dk f.gz'
c stdout-c gz 'put f' '"$P" -c f'
c stdout-dc raw 'put f.gz' '"$P" -dc f.gz'
c stdout-c-9 gz 'put f' '"$P" -9 -c f'
c force-compress none 'put f; put f.gz' '"$P" -f f'
c exists-compress none 'put f; put g.gz f.gz' '"$P" f'
c exists-decompress none 'put f.gz; put g f' '"$P" -d f.gz'
c exists-decompress-f none 'put f.gz; put g f' '"$P" -df f.gz'
c exists-keep none 'put f; put g.gz f.gz' '"$P" -k f'
c exists-dir-f none 'put f.gz; mkdir f' '"$P" -df f.gz'
c exists-symlink-f none 'put f.gz; ln -s g f' '"$P" -df f.gz'
c name-too-long none 'put f "$LONG"' '"$P" "$LONG"'
c already-gz none 'put f.gz' '"$P" f.gz'
c already-gz-f none 'put f.gz' '"$P" -f f.gz'
# -t
c test-good raw 'put f.gz' '"$P" -t f.gz'
c test-multi raw 'put multi.gz' '"$P" -t multi.gz'
c test-corrupt raw 'put bad.gz' '"$P" -t bad.gz'
c test-truncated raw 'put trunc.gz' '"$P" -t trunc.gz'
c test-crc raw 'put crc.gz' '"$P" -t crc.gz'
c test-garbage raw 'put garbage.gz' '"$P" -t garbage.gz'
c test-notgz raw 'put notgz.gz' '"$P" -t notgz.gz'
c test-unknown-suffix raw 'put f.gz f.xyz' '"$P" -t f.xyz'
c test-stdin raw 'put f.gz' '"$P" -t <f.gz'
# damaged and unusual input to -d
c d-truncated none 'put trunc.gz' '"$P" -d trunc.gz'
c d-corrupt none 'put bad.gz' '"$P" -d bad.gz'
c d-crc none 'put crc.gz' '"$P" -d crc.gz'
c d-garbage none 'put garbage.gz' '"$P" -d garbage.gz'
c dc-garbage raw 'put garbage.gz' '"$P" -dc garbage.gz'
c dqc-garbage raw 'put garbage.gz' '"$P" -dqc garbage.gz'
c d-zeros none 'put zeros.gz' '"$P" -d zeros.gz'
c dc-zeros raw 'put zeros.gz' '"$P" -dc zeros.gz'
c d-one-byte-more none 'put onebyte.gz' '"$P" -d onebyte.gz'
c d-multi none 'put multi.gz' '"$P" -d multi.gz'
c dc-multi raw 'put multi.gz' '"$P" -dc multi.gz'
c d-notgz none 'put notgz.gz' '"$P" -d notgz.gz'
c d-empty none 'put empty empty.gz' '"$P" -d empty.gz'
c dcf-notgz raw 'put notgz.gz' '"$P" -dcf notgz.gz'
c dcf-garbage raw 'put garbage.gz' '"$P" -dcf garbage.gz'
c dcf-zeros raw 'put zeros.gz' '"$P" -dcf zeros.gz'
c dcf-one-byte-more raw 'put onebyte.gz' '"$P" -dcf onebyte.gz'
c df-notgz none 'put notgz.gz' '"$P" -df notgz.gz'
c dc-empty raw 'put empty empty.gz' '"$P" -dc empty.gz'
c test-zeros raw 'put zeros.gz' '"$P" -t zeros.gz'
c dc-truncated raw 'put trunc.gz' '"$P" -dc trunc.gz'
# missing files
c missing none 'put f' '"$P" nosuch'
c missing-d none 'put f.gz' '"$P" -d nosuch'
c d-finds-suffix none 'put f.gz' '"$P" -d f'
c c-missing-and-file gz 'put f' '"$P" -c nosuch f'
c file-and-missing none 'put f' '"$P" f nosuch'
c warn-then-error none 'mkdir d' '"$P" d nosuch'
c error-then-warn none 'mkdir d' '"$P" nosuch d'
c quiet-warning none 'mkdir d' '"$P" -q d'
c quiet-exists none 'put f; put g.gz f.gz' '"$P" -q f'
c verbose none 'put f' '"$P" -v f'
# a symbolic link, hard links, a FIFO, directories
c symlink none 'put f; ln -s f link' '"$P" link'
c symlink-f none 'put f; ln -s f link' '"$P" -f link'
c symlink-c gz 'put f; ln -s f link' '"$P" -c link'
c symlink-dangling none 'ln -s nowhere link' '"$P" -f link'
c test-symlink raw 'put f.gz; ln -s f.gz link.gz' '"$P" -t link.gz'
c setuid none 'put f; chmod 4755 f' '"$P" f'
c setgid none 'put f; chmod 2755 f' '"$P" f'
c sticky none 'put f; chmod 1644 f' '"$P" f'
c sticky-f none 'put f; chmod 1644 f' '"$P" -f f'
c setuid-c gz 'put f; chmod 4755 f' '"$P" -c f'
c hardlink none 'put f; ln f hard' '"$P" f'
c hardlink-f none 'put f; ln f hard' '"$P" -f f'
c hardlink-c gz 'put f; ln f hard' '"$P" -c f'
c hardlink-d-f none 'put f.gz; ln f.gz hard.gz' '"$P" -df f.gz'
c fifo none 'mkfifo fifo' '"$P" fifo'
c fifo-f none 'mkfifo fifo' '"$P" -f fifo'
c fifo-c gz 'mkfifo fifo' '"$P" -c fifo'
c fifo-t raw 'mkfifo fifo' '"$P" -t fifo'
c devnull-c gz '' '"$P" -c /dev/null'
c dir none 'mkdir d; put f d/f; put g d/g' '"$P" d'
c dir-r none 'mkdir -p d/e; put f d/f; put g d/e/g; put g.gz d/h.gz' \
    '"$P" -r d'
c dir-r-symlink none 'mkdir d; put f d/f; ln -s f d/link' '"$P" -r d'
c dir-dr none 'mkdir -p d/e; put f.gz d/f.gz; put g.gz d/e/g.gz; put g d/x' \
    '"$P" -dr d'
c dir-tr raw 'mkdir -p d/e; put f.gz d/f.gz; put g.gz d/e/g.gz' '"$P" -tr d'
# suffixes
c suffix-z none 'put f' '"$P" -S .z f'
c suffix-z-d none 'put f.gz f.z' '"$P" -d -S .z f.z'
c known-z-d none 'put f.gz f.z' '"$P" -d f.z'
c tgz-d none 'put f.gz a.tgz' '"$P" -d a.tgz'
c upper-GZ-d none 'put f.gz F.GZ' '"$P" -d F.GZ'
c unknown-suffix-d none 'put f.gz f.xyz' '"$P" -d f.xyz'
c unknown-suffix-dc raw 'put f.gz f.xyz' '"$P" -dc f.xyz'
c suffix-slash none 'put f' '"$P" -S a/b f'
c d-suffix-empty none 'put f.gz' '"$P" -d -S "" f.gz'
c d-suffix-z-on-gz none 'put f.gz' '"$P" -d -S .z f.gz'
c d-only-suffix none 'put f.gz .gz' '"$P" -d .gz'
c suffix-empty none 'put f' '"$P" -S "" f'
# names and times
c name-n none 'put f' '"$P" -n f'
c name-N none 'put f' '"$P" -N f'
c name-N-c gz 'put f' '"$P" -N -c f'
c dN none 'put renamed.gz' '"$P" -dN renamed.gz'
c d-default-name none 'put renamed.gz' '"$P" -d renamed.gz'
c dN-exists none 'put renamed.gz; put g orig' '"$P" -dN renamed.gz'
c dN-c raw 'put renamed.gz' '"$P" -dNc renamed.gz'
c dN-dotdot none 'mkdir w; put dotdot.gz w/x.gz' 'cd w && "$P" -dN x.gz'
c dN-subdir none 'put subdir.gz x.gz' '"$P" -dN x.gz'
c dN-self none 'put self.gz' '"$P" -dN self.gz'
# standard input and output
c stdin-stdout gz 'put f' '"$P" <f'
c stdin-stdout-d raw 'put f.gz' '"$P" -d <f.gz'
c stdin-empty gz 'put empty' '"$P" <empty'
c stdin-d-empty raw 'put empty' '"$P" -d <empty'
c stdin-dash gz 'put f' '"$P" -c - <f'
c stdin-d-garbage raw 'put garbage.gz' '"$P" -d <garbage.gz'
c stdin-d-truncated raw 'put trunc.gz' '"$P" -d <trunc.gz'
c stdin-d-notgz raw 'put notgz.gz' '"$P" -d <notgz.gz'
c c-two-files gz 'put f; put g' '"$P" -c f g'
c dc-two-files raw 'put f.gz; put g.gz' '"$P" -dc f.gz g.gz'
c fast-best gz 'put f' '"$P" --fast -c f && "$P" --best -c f'
c rsyncable gz 'put f' '"$P" --rsyncable -c f'
c dash-dash none 'put f ./-f' '"$P" -- -f'
c help none '' '"$P" -h'
c version none '' '"$P" -V'
c license none '' '"$P" -L'
c gzip-env gz 'put f' 'GZIP=-9 "$P" -c f'
c list status 'put f.gz' '"$P" -l f.gz'
c bad-option none 'put f' '"$P" --no-such-option f'
# a terminal (script(1) gives the command a pty on stdin and stdout)
if [ $HAVE_SCRIPT -eq 1 ]; then
    c tty-compress-stdout tty 'put f' 'script -qec "\"\$P\" <f" /dev/null'
    c tty-compress-c tty 'put f' 'script -qec "\"\$P\" -c f" /dev/null'
    c tty-decompress-stdin tty '' 'script -qec "\"\$P\" -d" /dev/null'
    c tty-test-stdin tty '' 'script -qec "\"\$P\" -t" /dev/null'
    c tty-dc-file tty 'put g.gz' 'script -qec "\"\$P\" -dc g.gz" /dev/null'
    c tty-compress-file tty 'put f' 'script -qec "\"\$P\" f" /dev/null'
else
    echo "SKIP  tty-*: no script(1) (package bsdutils) or no pty for it"
    skipped=$((skipped + 1))
fi

# the allowlist's names that no longer differ, or are no case at all
if [ -f "$LIST" ]; then
    awk '!/^#/ && NF { print $1 }' "$LIST" >"$T/listed"
    while IFS= read -r n; do
        r=$(awk -v n="$n" '$1 == n { print $2 }' "$T/results")
        [ "$r" = diff ] || echo "NOTE  $n: listed, but ${r:-no such case}"
    done <"$T/listed"
fi

echo "$same same, $differ differ ($unlisted not listed as deliberate" \
    "in $(basename "$LIST")), $skipped skipped"
if [ $((same + differ)) -eq 0 ]; then
    echo "SKIP: no case could run"
    exit 77
fi
[ $unlisted -eq 0 ]
