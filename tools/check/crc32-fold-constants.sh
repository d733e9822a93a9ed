#!/bin/sh
# crc32-fold-constants.sh -- the CRC-32 folding constants of the SIMD
# checksums (turbo/TECHNIQUES.md, "SIMD checksums"), derived again by
# turbo/tests/crc32_fold_consts.c: the same lines as in crc32_simd.c
set -eu
${CC:-cc} -O2 -o "$LOG/crc32_fold_consts" turbo/tests/crc32_fold_consts.c
"$LOG/crc32_fold_consts" >"$LOG/crc32_fold_consts.txt"
cat "$LOG/crc32_fold_consts.txt"
while IFS= read -r line; do
    grep -qxF "$line" "$TUR/crc32_simd.c" ||
        { echo "not in crc32_simd.c: $line"; exit 1; }
done <"$LOG/crc32_fold_consts.txt"
echo "all $(wc -l <"$LOG/crc32_fold_consts.txt") constants are crc32_simd.c's"
