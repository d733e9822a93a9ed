#!/bin/sh
# zturbo-command.sh -- zturbo, the gzip-compatible command
# (src/cmd/zturbo.c): its -n output for every -T is the bytes of the same
# program built on pristine zlib 1.3.2, the system's gzip reads all it
# writes, and damaged input, signals and file handling behave as documented
# (turbo/zturbo/test.sh; skipped without gzip)
set -eu
O="$B/zturbo-test" exec sh turbo/zturbo/test.sh
