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
