#!/bin/sh
# checksums-exhaustive.sh -- zsum (turbo/tests/zsum.c): the checksums of
# the patched tree against a plain reference for every length 0-4096 at
# every alignment (ZSUM_CFLAGS: other flags than pair.sh's test flags)
set -eu
sh turbo/tests/zsum.sh "$TUR" "${ZSUM_CFLAGS:-}" -q
