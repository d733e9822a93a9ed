#!/bin/sh
# cmp.sh A B: compare two crc.sh outputs, sizes and CRCs only (times dropped)
awk '{print $1, $2, $3, ($2=="TOTAL" ? "" : $4)}' $1 > /tmp/l10c-cmp-a
awk '{print $1, $2, $3, ($2=="TOTAL" ? "" : $4)}' $2 > /tmp/l10c-cmp-b
if cmp -s /tmp/l10c-cmp-a /tmp/l10c-cmp-b; then echo "SAME: $(grep -vc TOTAL /tmp/l10c-cmp-a) file-level rows"; else diff /tmp/l10c-cmp-a /tmp/l10c-cmp-b; fi
