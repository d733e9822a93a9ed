#!/bin/sh
# docs.sh -- the docs say what the repository has: TECHNIQUES.md in the
# series' order, every cited test, mutant count and repository path real,
# no path outside the repository, no issue numbers (tools/check/docs.py
# says each rule).  A broken rule fails with the doc and what it cites.
set -eu
exec python3 tools/check/docs.py "${TOP:-.}"
