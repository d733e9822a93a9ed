#!/bin/sh
# tools/check/clients/digest.sh CMD... -- the sha256 and the length of
# CMD's output, in place of the output (git cat-file writes gigabytes);
# exits as CMD did
set -u
t=$(mktemp -d)
mkfifo "$t/f"
wc -c <"$t/f" >"$t/n" &
{ "$@"; echo $? >"$t/rc"; } | tee "$t/f" | sha256sum
wait
echo "$(cat "$t/n") bytes"
rc=$(cat "$t/rc")
rm -rf "$t"
exit "$rc"
