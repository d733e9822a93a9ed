#!/bin/sh
# clients.sh -- real programs from Debian, unchanged, run once on pristine
# zlib 1.3.2 (build/zlib-1.3.2) and once on zlib-turbo (build/zlib-turbo)
# through LD_LIBRARY_PATH: what they write must be the same bytes, and the
# same run measures their speed.
#
#   clients.sh quick   (make check's clients-quick step, well under 60 s)
#     CPython's zlib.compress, gzip.compress and zlib.compressobj at levels
#     1, 6, 9 (tools/check/clients/pybytes.py) and `git archive
#     --format=tar.gz` (-1, default, -9) of this repository's HEAD.
#   clients.sh         (make check-clients, several minutes)
#     the same, and: CPython's test suite (test_zlib test_gzip test_zipfile
#     test_tarfile) on each library; git: a repository with history made by
#     git itself (tools/check/clients/gitrepo.py; loose objects) at
#     core.compression 6 and 9, its loose objects, then `git gc` with
#     pack.threads=1 and the .pack files; `git cat-file --batch
#     --batch-all-objects` output; libpng: pngtest (built from Debian's
#     libpng1.6 source package) on its test images, pngcrush -brute and
#     Pillow's PNG writer at levels 1, 6, 9; pigz -p1 (-1, -6, -9) and its
#     inflate; Perl's Compress::Zlib; and the speed of each library in
#     git cat-file, git repack -F, pigz and Python: CPU time (user+sys) of
#     ROUNDS (default 7) runs each, interleaved, medians and their ratio.
#
# Every run records, with LD_DEBUG=libs, which libz.so.1 each of its
# processes loaded: a run that loaded any other libz (e.g. the system's)
# fails the step, and a control run on an empty directory must be caught
# that way.  A program that is not installed is skipped, saying so; the
# quick step then exits 77 (skipped), its last line saying which (after
# running the other part).  CLIENTS_PY: the python3.11 to run (default
# Debian's /usr/bin/python3.11; empty: none).
#
# Data: ZT_CORPUS (default ../shared/corpus); without it, zlib's own sources
# (build/src/zlib-1.3.2).  CLIENTS_REPOS="DIR..." adds git repositories to
# the cat-file comparison (e.g. a clone of madler/zlib or git/git).
# LIBPNG_SRC=DIR: an unpacked libpng 1.6 source (else build/clients-src, or
# `apt-get source libpng1.6` with a temporary deb-src list when apt can).
# Summary lines (bytes ... / speed ...) also go to build/clients*/summary.txt.
set -u
. tools/check/lib.sh
TOP=${TOP:-$(pwd)}
B=${B:-$TOP/build}
REF=${REF:-$B/zlib-1.3.2}
TUR=${TUR:-$B/zlib-turbo}
PRISTINE=${PRISTINE:-$B/src/zlib-1.3.2}
MODE=${1:-full}
case $MODE in
quick) W=$B/clients-quick ;;
full) W=$B/clients ;;
*) echo "usage: clients.sh [quick]"; exit 2 ;;
esac
ROUNDS=${ROUNDS:-7}
rm -rf "$W"
mkdir -p "$W/empty"
SUM=$W/summary.txt
: >"$SUM"
fails=0
nskip=0

say() { echo "$*"; echo "$*" >>"$SUM"; }
# lap PART: how long the part just ended took
t_lap=$(date +%s)
lap() { now=$(date +%s); say "time   $1: $((now - t_lap)) s"; t_lap=$now; }
bad() { say "FAIL: $*"; fails=$((fails + 1)); }
skipped() { say "SKIP: $*"; nskip=$((nskip + 1)); }
have() { command -v "$1" >/dev/null 2>&1; }

for d in "$REF" "$TUR"; do
    [ -f "$d/libz.so.1" ] || { echo "no $d/libz.so.1: run make build first"; exit 1; }
done
# the two directories hold what they are said to: zlib 1.3.2, and only
# zlib-turbo's has zlibTurboVersion
grep -q 'deflate 1\.3\.2 Copyright' "$REF/libz.so.1" && grep -q 'deflate 1\.3\.2 Copyright' "$TUR/libz.so.1" &&
    ! grep -q zlibTurboVersion "$REF/libz.so.1" && grep -q zlibTurboVersion "$TUR/libz.so.1" ||
    { echo "$REF/libz.so.1 is not pristine zlib 1.3.2 or $TUR/libz.so.1 not zlib-turbo"; exit 1; }

# libdir ref|tur|DIR: the directory LD_LIBRARY_PATH names
libdir() {
    case $1 in ref) echo "$REF" ;; tur) echo "$TUR" ;; *) echo "$1" ;; esac
}

# on ref|tur|DIR CMD...: run CMD on that libz.so.1 and check, from
# LD_DEBUG=libs, that every process of it that started a libz started that
# one, and that at least one did; messages on stderr; status: CMD's, or 99
# when the wrong library (or none) was loaded
on() {
    d=$(libdir "$1")
    shift
    rm -f "$W/ld".*
    LD_LIBRARY_PATH=$d LD_DEBUG=libs LD_DEBUG_OUTPUT=$W/ld "$@"
    st=$?
    got=$(cat "$W/ld".* 2>/dev/null | sed -n 's/.*calling init: \(.*libz\.so[^ ]*\).*/\1/p' | sort | uniq -c)
    n=$(echo "$got" | awk 'NF { n++ } END { print n + 0 }')
    if [ "$n" -ne 1 ] || [ "$(echo "$got" | awk '{ print $2 }')" != "$d/libz.so.1" ]; then
        echo "LOADED WRONG LIBRARY: $1 wanted $d/libz.so.1, got: ${got:-no libz at all}" >&2
        return 99
    fi
    return $st
}

# same WHAT FILE1 FILE2: the bytes are the same, a summary line either way
same() {
    if [ -s "$2" ] && cmp -s "$2" "$3"; then
        if grep -q '^[0-9a-f]\{64\}  -$' "$2"; then
            say "bytes  $1: equal (sha256 $(head -c 16 "$2")..., $(tail -n 1 "$2"))"
        else
            say "bytes  $1: equal ($(wc -c <"$2") bytes)"
        fi
    else
        bad "bytes  $1: DIFFERENT or empty: $2 $3"
    fi
}

# key TAG: a file name for TAG
key() { echo "$1" | tr -c 'A-Za-z0-9.-' '_' | cut -c1-80; }

# both TAG CMD...: run CMD on each library, its stdout in $W/out/KEY.ref and
# $W/out/KEY.tur (KEY: key TAG), and compare them
both() {
    tag=$1
    k=$W/out/$(key "$1")
    shift
    mkdir -p "$W/out"
    for l in ref tur; do
        on $l "$@" >"$k.$l" 2>"$k.$l.err" ||
            { bad "$tag on $l: exit $? ($(tail -n 3 "$k.$l.err" | tr '\n' ' '))"; return 1; }
    done
    same "$tag" "$k.ref" "$k.tur"
}

# cpu CMD: user+sys seconds of sh -c CMD (stdout to /dev/null)
cpu() {
    /usr/bin/time -f '%U %S' -o "$W/time" sh -c "$1" >/dev/null 2>"$W/time.err" ||
        { echo "speed run failed: $1: $(tail -n 2 "$W/time.err")" >&2; echo 0; return; }
    awk 'END { printf "%.3f\n", $1 + $2 }' "$W/time"
}
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# speed LABEL CMD: ROUNDS runs of sh -c CMD on each library, interleaved
# (ref tur, tur ref, ...), CPU time medians and pristine/turbo
speed() {
    [ -x /usr/bin/time ] || { skipped "speed $1: no /usr/bin/time"; return; }
    : >"$W/t.ref"
    : >"$W/t.tur"
    i=0
    while [ $i -lt "$ROUNDS" ]; do
        if [ $((i % 2)) -eq 0 ]; then o="ref tur"; else o="tur ref"; fi
        for l in $o; do
            LD_LIBRARY_PATH=$(libdir $l) cpu "$2" >>"$W/t.$l"
        done
        i=$((i + 1))
    done
    r=$(median <"$W/t.ref")
    t=$(median <"$W/t.tur")
    say "speed  $1: pristine $r s, turbo $t s (CPU user+sys, median of $ROUNDS each), ratio $(awk "BEGIN { printf \"%.2f\", $r / ($t > 0 ? $t : 1e-9) }")x  [pristine: $(tr '\n' ' ' <"$W/t.ref")] [turbo: $(tr '\n' ' ' <"$W/t.tur")]"
}

# ---------------------------------------------------------------- data
CORPUS=${ZT_CORPUS:-$TOP/../shared/corpus}
if [ -d "$CORPUS/canterbury" ]; then
    C=$CORPUS
    QUICK_FILES="$C/canterbury/alice29.txt $C/canterbury/kennedy.xls $C/calgary/geo"
    FILES="$C/canterbury/alice29.txt $C/canterbury/kennedy.xls $C/canterbury/ptt5 $C/calgary/geo $C/calgary/obj2 $C/large/world192.txt $C/mixed/austen.txt $C/mixed/gas-src.tar"
    REPO_FILES=$(ls "$C"/calgary/* "$C"/canterbury/* "$C"/large/*)
    BIG=$C/mixed/gir-xml.tar
    say "data: corpus $C"
else
    QUICK_FILES="$PRISTINE/deflate.c $PRISTINE/ChangeLog $PRISTINE/doc/crc-doc.1.0.pdf"
    FILES="$PRISTINE/deflate.c $PRISTINE/inflate.c $PRISTINE/zlib.h $PRISTINE/ChangeLog $PRISTINE/doc/algorithm.txt $PRISTINE/doc/crc-doc.1.0.pdf"
    REPO_FILES=$(ls "$PRISTINE"/*.[ch] "$PRISTINE"/ChangeLog "$PRISTINE"/doc/*.txt)
    BIG=$W/big
    cat $REPO_FILES $REPO_FILES $REPO_FILES >"$BIG"
    say "data: no corpus at $CORPUS; zlib 1.3.2's own files ($PRISTINE)"
fi
say "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------- python
# Debian's python3.11 (CLIENTS_PY=PATH another, CLIENTS_PY= none)
PY=
for p in ${CLIENTS_PY-/usr/bin/python3.11 python3.11}; do
    if have "$p"; then PY=$(command -v "$p"); break; fi
done
if [ -n "$PY" ]; then
    # the two libraries are told apart, and a run that is not on the
    # library it names is caught (the control: an empty directory, where
    # the system's libz is loaded)
    who_ref='' who_tur=''
    for l in ref tur; do
        who=$(on $l "$PY" tools/check/clients/pybytes.py whoami "$(libdir $l)") ||
            bad "python on $l: not on $(libdir $l)/libz.so.1: $who"
        say "python3.11 on $l: zlib $who"
        eval "who_$l=\$who"
    done
    case $who_ref in pristine*) ;; *) bad "python on ref sees zlibTurboVersion" ;; esac
    case $who_tur in turbo*) ;; *) bad "python on tur has no zlibTurboVersion" ;; esac
    if on "$W/empty" "$PY" -c 'import zlib' 2>/dev/null ||
        "$PY" tools/check/clients/pybytes.py whoami "$W/empty" >/dev/null 2>&1; then
        bad "control: a python not on the named library was not caught"
    else
        say "control: python on the system's libz (empty LD_LIBRARY_PATH dir) is caught: yes"
    fi
    if [ "$MODE" = quick ]; then pf=$QUICK_FILES; else pf=$FILES; fi
    # shellcheck disable=SC2086
    both python-zlib-gzip-levels-1-6-9 "$PY" tools/check/clients/pybytes.py bytes $pf
else
    skipped "python3.11: not installed"
fi

lap "python bytes"
# ---------------------------------------------------------------- git
if have git; then
    G=$(command -v git)
    if on "$W/empty" "$G" --version >/dev/null 2>&1; then
        bad "control: a git not on the named library was not caught"
    else
        say "control: git on the system's libz is caught: yes"
    fi
    HEAD=$(git -C "$TOP" rev-parse HEAD)
    for lv in -1 "" -9; do
        # shellcheck disable=SC2086
        both "git-archive-tar.gz${lv:- (default)}" "$G" -C "$TOP" archive --format=tar.gz $lv "$HEAD"
    done
else
    skipped "git: not installed"
fi

lap "git archive"
if [ "$MODE" = quick ]; then
    echo "$fails failed"
    [ "$fails" -eq 0 ] || exit 1
    # a part that could not run makes the step a skip, which says why
    [ "$nskip" -eq 0 ] || skip "$(grep '^SKIP: ' "$SUM" | sed 's/^SKIP: //' | tr '\n' ';' | sed 's/;$//'; echo) (the rest passed)"
    exit 0
fi

# ============================================================ full only
# ---------------------------------------------------------------- python tests
if [ -n "$PY" ]; then
    if "$PY" -c 'import test.test_zlib' 2>/dev/null; then
        bl_ref=1 bl_tur=1
        for l in ref tur; do
            # test_badlevel is run on its own below: zlib-turbo accepts level 10
            on $l "$PY" -m test -v -i test_badlevel test_zlib test_gzip test_zipfile test_tarfile \
                >"$W/pytest.$l" 2>&1 &&
                say "python3.11 -m test test_zlib(-test_badlevel) test_gzip test_zipfile test_tarfile on $l: $(awk '/^Ran [0-9]+ test/ { n += $2 } /^OK \(skipped=/ { sub(/.*=/, ""); sub(/\)/, ""); k += $0 } /^Tests result/ { r = $0 } END { print n " test methods, " k " skipped, " r }' "$W/pytest.$l")" ||
                bad "python3.11 -m test on $l: $(tail -n 4 "$W/pytest.$l" | tr '\n' ' ')"
            on $l "$PY" -m test -v -m test_badlevel test_zlib >"$W/badlevel.$l" 2>&1
            eval "bl_$l=$?"
        done
        # known: test_badlevel asserts zlib.compress(b'ERROR', 10) raises;
        # zlib-turbo's levels 10-12 (an extra) accept it
        if [ "$bl_ref" -ne 0 ]; then
            bad "test_zlib.test_badlevel fails on pristine zlib"
        elif [ "$bl_tur" -eq 0 ]; then
            say "python test_zlib.test_badlevel on tur: passes"
        elif grep -q 'assertRaises(zlib.error, zlib.compress, b.ERROR., 10)' "$W/badlevel.tur"; then
            say "python test_zlib.test_badlevel on tur: FAILS, known: zlib.compress(b'ERROR', 10) is accepted (levels 10-12, zlib-turbo's extra; zlib 1.3.2 says Z_STREAM_ERROR)"
        else
            bad "test_zlib.test_badlevel fails on zlib-turbo for another reason: $W/badlevel.tur"
        fi
    else
        skipped "python3.11 test suite: not installed (apt-get install libpython3.11-testsuite)"
    fi
fi

lap "python test suite"
# ---------------------------------------------------------------- git repos
REPOS=
if have git && [ -n "$PY" ]; then
    for lv in 6 9; do
        for l in ref tur; do
            r=$W/repo$lv.$l
            # shellcheck disable=SC2086
            on $l "$PY" tools/check/clients/gitrepo.py "$r" $lv 60 $REPO_FILES \
                2>"$W/repo.err" || bad "making the git repository on $l: $(tail -n 3 "$W/repo.err")"
            (cd "$r/.git/objects" && find . -type f | LC_ALL=C sort | xargs cat) >"$W/loose$lv.$l"
        done
        same "git loose objects, core.compression $lv ($(find "$W/repo$lv.ref/.git/objects" -type f | wc -l) files)" \
            "$W/loose$lv.ref" "$W/loose$lv.tur"
        # a copy with its objects loose, for cat-file (reads a fresh
        # repository's objects one zlib stream each, no deltas)
        [ $lv = 6 ] && cp -a "$W/repo6.ref" "$W/repo6-loose"
        for l in ref tur; do
            on $l "$G" -C "$W/repo$lv.$l" -c pack.threads=1 -c core.compression=$lv gc -q --prune=now \
                2>"$W/gc.err" || bad "git gc on $l: $(tail -n 3 "$W/gc.err")"
            cat "$W/repo$lv.$l"/.git/objects/pack/*.pack >"$W/pack$lv.$l"
        done
        same "git gc pack, pack.threads=1, core.compression $lv ($(ls "$W/repo$lv.ref"/.git/objects/pack/*.pack | sed 's,.*/,,'))" \
            "$W/pack$lv.ref" "$W/pack$lv.tur"
    done
    git clone -q --bare --no-local "$TOP" "$W/self.git" 2>/dev/null
    REPOS="$W/repo6-loose $W/repo6.ref $W/self.git ${CLIENTS_REPOS:-}"
    # a repository of more than MAXOBJ objects: every Nth of them (in
    # object-name order, so from all of its history), given on stdin
    MAXOBJ=${MAXOBJ:-100000}
    for r in $REPOS; do
        n=$(git -C "$r" cat-file --batch-all-objects --batch-check | wc -l)
        list=$W/objects.$(key "$r")
        if [ "$n" -gt "$MAXOBJ" ]; then
            git -C "$r" cat-file --batch-all-objects --batch-check='%(objectname)' |
                awk -v k=$(((n + MAXOBJ - 1) / MAXOBJ)) 'NR % k == 1' >"$list"
            what="git cat-file --batch of $(wc -l <"$list") of its $n objects (every $(((n + MAXOBJ - 1) / MAXOBJ))th), $r"
            both "$what (sha256 of the output)" sh tools/check/clients/digest.sh sh -c "exec git -C '$r' cat-file --batch <'$list'"
        else
            what="git cat-file --batch --batch-all-objects ($n objects), $r"
            both "$what (sha256 of the output)" sh tools/check/clients/digest.sh "$G" -C "$r" cat-file --batch --batch-all-objects
        fi
        echo "$what" >"$list.what"
        rm -f "$k.ref" "$k.tur"
    done
fi

lap "git repositories, gc, cat-file"
# ---------------------------------------------------------------- libpng
PNGW=$W/png
mkdir -p "$PNGW"
SRCDIR=${LIBPNG_SRC:-}
if [ -z "$SRCDIR" ]; then
    SRCDIR=$(ls -d "$B"/clients-src/libpng1.6-*/ 2>/dev/null | head -n 1)
fi
if [ -z "$SRCDIR" ] && have apt-get && have dpkg-source; then
    # a temporary deb-src list, the system's apt configuration untouched
    S=$B/clients-src
    mkdir -p "$S/lists/partial"
    codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-bookworm}")
    echo "deb-src http://deb.debian.org/debian $codename main" >"$S/src.list"
    A="-o Dir::Etc::SourceList=$S/src.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$S/lists"
    # shellcheck disable=SC2086
    (cd "$S" && apt-get $A update -qq && apt-get $A source -qq libpng1.6) >"$W/apt-source.log" 2>&1
    SRCDIR=$(ls -d "$S"/libpng1.6-*/ 2>/dev/null | head -n 1)
fi
if [ -n "$SRCDIR" ] && [ -f "$SRCDIR/pngtest.c" ] && [ -f /usr/include/libpng16/png.h ]; then
    # pngtest.c against the system's libpng (its zlib: whichever libz.so.1)
    cp "$SRCDIR/pngtest.c" "$PNGW/"
    if ${CC:-cc} -O2 -I/usr/include/libpng16 -o "$PNGW/pngtest" "$PNGW/pngtest.c" -lpng16 -lz 2>"$PNGW/cc.err"; then
        # the PNGs must be the same bytes; where they are not, the rows
        # libpng handed zlib may differ: pngtest leaves the unused bits at
        # the end of 1/2/4-bit rows as memory held them (different on each
        # run, with either library), pngidat.py tells; those are counted
        # apart, and a difference in the compressed bytes of the same rows
        # fails
        n=0 ne=0 np=0
        for f in "$SRCDIR"/pngtest.png "$SRCDIR"/contrib/testpngs/*.png "$SRCDIR"/contrib/pngsuite/*.png; do
            [ -f "$f" ] || continue
            for l in ref tur; do
                (cd "$PNGW" && on $l ./pngtest "$f" "out.$l.png" >"log.$l" 2>&1)
                echo $? >"$PNGW/rc.$l"
            done
            if ! cmp -s "$PNGW/rc.ref" "$PNGW/rc.tur"; then
                bad "pngtest $f: exit $(cat "$PNGW/rc.ref") on pristine, $(cat "$PNGW/rc.tur") on turbo"
            elif [ "$(cat "$PNGW/rc.ref")" = 99 ]; then
                bad "pngtest $f: not on the named library"
            elif [ -f "$PNGW/out.ref.png" ] || [ -f "$PNGW/out.tur.png" ]; then
                n=$((n + 1))
                if ! cmp -s "$PNGW/out.ref.png" "$PNGW/out.tur.png"; then
                    why=$("$PY" tools/check/clients/pngidat.py "$PNGW/out.ref.png" "$PNGW/out.tur.png" 2>&1)
                    if [ "$why" = padding ]; then
                        np=$((np + 1))
                    else
                        ne=$((ne + 1))
                        cp "$PNGW/out.ref.png" "$PNGW/diff-$n.ref.png"
                        cp "$PNGW/out.tur.png" "$PNGW/diff-$n.tur.png"
                        echo "differs ($why): $f, $PNGW/diff-$n.*.png"
                    fi
                fi
            fi
            rm -f "$PNGW"/out.*.png
        done
        if [ "$n" -gt 0 ] && [ "$ne" -eq 0 ]; then
            say "bytes  pngtest ($(basename "$SRCDIR")) written PNGs: $((n - np)) of $n equal, $np 1/2/4-bit images whose row padding pngtest leaves unset (other rows in, no compressed-bytes difference)"
        else
            bad "bytes  pngtest: $ne of $n written PNGs differ"
        fi
    else
        bad "pngtest did not build: $(tail -n 3 "$PNGW/cc.err")"
    fi
else
    skipped "pngtest: no libpng1.6 source (LIBPNG_SRC) or no libpng-dev"
fi
PNGS=
if [ -n "$SRCDIR" ]; then PNGS=$(ls "$SRCDIR"/pngtest.png "$SRCDIR"/contrib/pngsuite/basn*.png 2>/dev/null | head -n 8); fi
if have pngcrush; then
    if [ -z "$PNGS" ] && [ -n "$PY" ] && "$PY" -c 'import PIL' 2>/dev/null; then
        "$PY" -c "from PIL import Image; Image.frombytes('L', (256, 256), bytes(range(256)) * 256).save('$PNGW/ramp.png')"
        PNGS=$PNGW/ramp.png
    fi
    if [ -n "$PNGS" ]; then
        for f in $PNGS; do
            for l in ref tur; do
                on $l pngcrush -q -brute "$f" "$PNGW/crush.$l.png" >/dev/null 2>&1 ||
                    bad "pngcrush on $l: $f"
            done
            cat "$PNGW/crush.ref.png" >>"$PNGW/crushed.ref"
            cat "$PNGW/crush.tur.png" >>"$PNGW/crushed.tur"
        done
        same "pngcrush -brute (148 zlib level/strategy/filter trials each) of $(echo "$PNGS" | wc -w) PNGs" "$PNGW/crushed.ref" "$PNGW/crushed.tur"
    else
        skipped "pngcrush: no PNG to crush"
    fi
else
    skipped "pngcrush: not installed"
fi
if [ -n "$PY" ] && "$PY" -c 'import PIL' 2>/dev/null; then
    # an 8-bit image from the data (an MRI volume with the corpus) and the
    # test PNGs, saved at levels 1, 6, 9 and with optimize
    img=$(ls "${C:-/nonexistent}"/mixed/ch2-mri.nii 2>/dev/null || echo "$BIG")
    cat >"$PNGW/pil.py" <<'EOF'
import hashlib, io, sys
from PIL import Image
data = open(sys.argv[1], "rb").read()[352:352 + 181 * 217 * 40]
ims = [Image.frombytes("L", (181, 217 * 40), data)] + [Image.open(f) for f in sys.argv[2:]]
for n, im in enumerate(ims):
    for kw in ({"compress_level": 1}, {"compress_level": 6}, {"compress_level": 9}, {"optimize": True}):
        b = io.BytesIO()
        im.save(b, "PNG", **kw)
        print(n, kw, len(b.getvalue()), hashlib.sha256(b.getvalue()).hexdigest()[:16])
EOF
    # shellcheck disable=SC2086
    both "Pillow PNG writer, levels 1 6 9 and optimize, $(($(echo "$PNGS" | wc -w) + 1)) images" "$PY" "$PNGW/pil.py" "$img" $PNGS
else
    skipped "python3-pil: not installed"
fi

lap "libpng, pngcrush, Pillow"
# ---------------------------------------------------------------- pigz, perl
if have pigz; then
    for lv in 1 6 9; do
        both "pigz -p1 -$lv -n, $(echo $FILES | wc -w) files" sh -c "for f in $FILES; do pigz -p1 -$lv -n -c \"\$f\"; done"
    done
    pigz -p1 -6 -n -c "$BIG" >"$W/big.gz"
    both "pigz -d (inflateBack) of $(basename "$BIG").gz" pigz -d -c "$W/big.gz"
    cmp -s "$k.tur" "$BIG" || bad "pigz -d on tur: not the file"
else
    skipped "pigz: not installed"
fi
if have perl && perl -MCompress::Zlib -e 1 2>/dev/null; then
    cat >"$W/pz.pl" <<'EOF'
use Compress::Zlib; use Digest::SHA qw(sha256_hex);
for my $f (@ARGV) {
    open(my $h, '<:raw', $f) or die; local $/; my $d = <$h>;
    for my $l (1, 6, 9) {
        my $c = compress($d, $l); die if uncompress($c) ne $d;
        my ($x) = deflateInit(-Level => $l, -WindowBits => -15, -Bufsize => 4096);
        my ($o, $s) = $x->deflate($d); my ($t) = $x->flush(); $o .= $t;
        print "$f $l ", length($c), " ", sha256_hex($c), " ", length($o), " ", sha256_hex($o), "\n";
    }
    my $g = Compress::Zlib::memGzip($d); print "$f gzip ", sha256_hex($g), "\n";
}
EOF
    # shellcheck disable=SC2086
    both "perl Compress::Zlib compress/deflate levels 1 6 9, memGzip" perl "$W/pz.pl" $FILES
else
    skipped "perl Compress::Zlib: not installed"
fi

lap "pigz, perl"
# ---------------------------------------------------------------- speed
say "load average before the speed runs: $(cut -d' ' -f1-3 /proc/loadavg)"
if have git; then
    for r in $REPOS; do
        list=$W/objects.$(key "$r")
        if [ -s "$list" ]; then
            speed "$(cat "$list.what")" "git -C '$r' cat-file --batch <'$list'"
        elif [ -f "$list.what" ]; then
            speed "$(cat "$list.what")" "git -C '$r' cat-file --batch --batch-all-objects"
        fi
    done
    speed "git repack -adF (pack.threads=1, core.compression 6), $W/repo6.ref" \
        "git -C '$W/repo6.ref' -c pack.threads=1 -c core.compression=6 repack -adFq"
fi
if have pigz; then
    speed "pigz -p1 -6, $(echo $FILES | wc -w) files" "for f in $FILES; do pigz -p1 -6 -c \"\$f\"; done"
    mkdir -p "$W/gz"
    for f in $FILES; do pigz -p1 -6 -n -c "$f" >"$W/gz/$(basename "$f").gz"; done
    speed "pigz -d, the same files, 5 times" "for i in 1 2 3 4 5; do for f in '$W'/gz/*.gz; do pigz -d -c \"\$f\"; done; done"
fi
if [ -n "$PY" ]; then
    speed "python3 zlib.compress(level 6), $(echo $FILES | wc -w) files" \
        "$PY -c 'import zlib,sys
for f in sys.argv[1:]: zlib.compress(open(f,\"rb\").read(), 6)' $FILES"
    [ -d "$W/gz" ] && speed "python3 zlib.decompress(wbits 31) of pigz's .gz of the same files, 5 times" \
        "$PY -c 'import zlib,sys
z=[open(f,\"rb\").read() for f in sys.argv[1:]]
for i in range(5): [zlib.decompress(c, 31) for c in z]' '$W'/gz/*.gz"
fi
lap "speed"
say "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
cat "$SUM"
echo "$fails failed, $nskip skipped parts"
[ "$fails" -eq 0 ]
