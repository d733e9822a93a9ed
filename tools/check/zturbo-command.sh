#!/bin/sh
# zturbo-command.sh -- zturbo, the gzip-compatible command
# (src/cmd/zturbo.c): its -n output for every -T is the bytes of the same
# program built on pristine zlib 1.3.2, the system's gzip reads all it
# writes, and damaged input, signals and file handling behave as documented
# (turbo/zturbo/test.sh; skipped without gzip); then zturbo against GNU
# gzip case by case (turbo/zturbo/vs-gzip.sh: exit status, kind of message,
# files left behind), every difference listed as deliberate; and the same
# cases again with -T 2 on every command line (threaded inflate for -d and
# -t must leave the same files, messages and exit statuses)
set -eu
. tools/check/lib.sh
O="$B/zturbo-test" sh turbo/zturbo/test.sh
mkdir -p "$B/zturbo-test"
T2=$B/zturbo-test/zturbo-T2
printf '#!/bin/sh\nexec "%s" -T 2 "$@"\n' "$TUR/zturbo" > "$T2"
chmod +x "$T2"
for z in "$TUR/zturbo" "$T2"; do
    r=0
    sh turbo/zturbo/vs-gzip.sh "$z" || r=$?
    case $r in
        0) ;;
        77) skip_part "zturbo against GNU gzip ($z): vs-gzip.sh could not run here" ;;
        *) exit "$r" ;;
    esac
done
