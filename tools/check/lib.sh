# tools/check/lib.sh -- helpers for the step scripts (sourced, not run)

# skip REASON...: end the step as skipped; REASON is its last line
skip() { echo "$*"; exit 77; }

# skip_part WHAT: REASON...: a part of the step that could not run here;
# the step goes on, and check.sh counts and shows that part as SKIP (a
# step that ran part of its work is never a plain PASS)
skip_part() { echo "part-skipped: $*"; }

# cpu_has FLAG: /proc/cpuinfo lists FLAG
cpu_has() { grep -qw "$1" /proc/cpuinfo 2>/dev/null; }

# need_x86: skip the step where the machine is not x86
need_x86() {
    case $(uname -m) in x86_64|i?86|amd64) ;; *) skip "not x86" ;; esac
}

# need_simd_cpu: skip the step where the CPU lacks what --simd builds use
need_simd_cpu() {
    need_x86
    cpu_has pclmulqdq && cpu_has sse4_1 && cpu_has avx2 ||
        skip "this CPU lacks PCLMULQDQ, SSE4.1 or AVX2"
}

# zsum_dispatch TREE CFLAGS MASK EXPECTED LOG: zsum on TREE's sources built
# with CFLAGS and run with ZLIB_TURBO_SIMD_MASK=MASK (empty: the CPU's own
# choice) must pass and report "dispatch: EXPECTED".  Its output goes to
# LOG first: in a pipe its status would be lost, and it exits 1 on a wrong
# checksum after printing the dispatch line.
zsum_dispatch() {
    r=0
    ${3:+env ZLIB_TURBO_SIMD_MASK=$3} sh turbo/tests/zsum.sh "$1" "$2" -q \
        >"$5" 2>&1 || r=$?
    cat "$5"
    [ "$r" -eq 0 ] || { echo "zsum failed (mask ${3:-none}): $r"; exit 1; }
    grep -q "dispatch: $4" "$5" || { echo "expected dispatch: $4"; exit 1; }
}

# sample_files: ZT_FILES for a sample of the suite, unless already set:
# six corpus files of different kinds (text, spreadsheet, object code,
# floats, fax bitmap, C source) from ../shared/corpus, or four of zlib's
# own sources ($REF) without it; exported
sample_files() {
    if [ -z "${ZT_FILES:-}" ]; then
        c_=$(cd "$TOP/.." && pwd)/shared/corpus
        for f_ in canterbury/alice29.txt canterbury/kennedy.xls calgary/obj2 \
                  calgary/geo canterbury/ptt5 calgary/progc; do
            [ ! -f "$c_/$f_" ] || ZT_FILES=${ZT_FILES:+$ZT_FILES:}$c_/$f_
        done
        [ -n "${ZT_FILES:-}" ] ||
            ZT_FILES=$REF/deflate.c:$REF/zlib.h:$REF/ChangeLog:$REF/inflate.c
    fi
    export ZT_FILES
}
