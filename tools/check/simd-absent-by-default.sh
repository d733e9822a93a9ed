#!/bin/sh
# simd-absent-by-default.sh -- the default build holds no SIMD instruction
# (no pclmul, no VEX-encoded AVX instruction) and no CPU detection (cpuid,
# xgetbv); x86 only
set -eu
. tools/check/lib.sh
need_x86
objdump -d --no-show-raw-insn "$TUR/libz.so.1" "$TUR/libz.a" >"$LOG/default.dis"
bad=$(grep -E 'pclmul|cpuid|xgetbv|%ymm|%zmm' "$LOG/default.dis" | head -n 5)
vex=$(awk -F'\t' 'NF >= 2 && $2 ~ /^v[a-z]/' "$LOG/default.dis" | head -n 5)
[ -z "$bad$vex" ] || { echo "in the default build: $bad $vex"; exit 1; }
echo "default build: $(grep -c '' "$LOG/default.dis") lines of disassembly," \
    "no pclmul, cpuid, xgetbv or AVX instruction"
