#!/bin/sh
# inflate-table-same.sh -- turbo/tests/inftrees_same.c: inflate_table() of
# the patched tree builds the same decoding tables, entry for entry, with
# the same return values, as pristine zlib 1.3.2's for 200000 random sets
# of code lengths (valid, incomplete, over-subscribed; every table type and
# root size inflate() and inflateBack() use) and the fixed codes
set -eu
O=$B/inftrees-same
CFLAGS=${CFLAGS:-$(sh turbo/harness/pair.sh cflags test)}
export CFLAGS
DRIVER_CFLAGS=-Wall sh turbo/harness/pair.sh build "$O" inftrees_same \
    "$REF" "$TUR" turbo/tests/inftrees_same.c
"$O/inftrees_same" "${INFTREES_ITERATIONS:-200000}" 1
