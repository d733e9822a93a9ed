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

# tsan_compilers DIR: a C and C++ compiler pair ("CC CXX") whose
# ThreadSanitizer works here -- it builds and runs a clean program and
# reports the race in a racy one (scratch files in DIR) -- tried in the
# order TSAN_CC/TSAN_CXX (default clang, clang++), then gcc, g++; prints
# nothing where none does
tsan_compilers() {
    mkdir -p "$1"
    cat >"$1/clean.c" <<'EOF'
#include <pthread.h>
static int x;
static void *run(void *p) { x++; return p; }
int main(void) { pthread_t t; pthread_create(&t, 0, run, 0);
                 pthread_join(t, 0); return x != 1; }
EOF
    cat >"$1/racy.c" <<'EOF'
#include <pthread.h>
#include <unistd.h>
static volatile int x;
static void *run(void *p) { x++; return p; }
int main(void) { pthread_t t; pthread_create(&t, 0, run, 0); x++;
                 pthread_join(t, 0); return 0; }
EOF
    for pair_ in "${TSAN_CC:-clang} ${TSAN_CXX:-clang++}" "gcc g++"; do
        set -- "$1" $pair_
        command -v "$2" >/dev/null 2>&1 && command -v "$3" >/dev/null 2>&1 || continue
        "$2" -fsanitize=thread -g -o "$1/clean" "$1/clean.c" >/dev/null 2>&1 || continue
        "$2" -fsanitize=thread -g -o "$1/racy" "$1/racy.c" >/dev/null 2>&1 || continue
        TSAN_OPTIONS=exitcode=66 "$1/clean" >/dev/null 2>&1 || continue
        rc_=0
        TSAN_OPTIONS=exitcode=66 "$1/racy" >/dev/null 2>&1 || rc_=$?
        [ "$rc_" -eq 66 ] || continue
        echo "$2 $3"
        return 0
    done
    return 0
}
