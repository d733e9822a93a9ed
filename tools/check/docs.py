#!/usr/bin/env python3
"""docs.py -- the docs say what the repository has (run by docs.sh).

Fails, naming each drift, when:
  - turbo/TECHNIQUES.md's technique sections ("## name") are not the
    techniques of patches/series, in the series' order;
  - a patch's message has a subject over 72 characters, not exactly one
    line "Why the output stays identical:", or (a checksum, deflate- or
    inflate- technique) no "Results:" line, or cites a record that does not
    exist;
  - a test name cited in a doc (`Suite.Name`, `Suite.*`) is not a
    GoogleTest test (or suite) of turbo/tests/*.cpp;
  - a mutant count cited ("N mutants") is not the number of
    turbo/tests/mutants/*.patch;
  - a repository path cited (turbo/..., tools/..., src/..., patches/...,
    packaging/..., upstream/...) does not exist;
  - a doc cites a path outside the repository (an absolute path such as
    /work/ or /tmp/, or ../ other than ../shared/corpus, the optional corpus
    that the tools read by default), or speaks of issue numbers;
  - any of these finds nothing to check (a check that cannot fail).
The docs: README.md, turbo/TECHNIQUES.md, packaging/README.md,
turbo/results/README.md, turbo/bench/README.md, turbo/tests/README.md
where they exist.
"""
import glob
import os
import re
import sys

TOP = sys.argv[1] if len(sys.argv) > 1 else "."
os.chdir(TOP)
DOCS = [d for d in ("README.md", "turbo/TECHNIQUES.md", "packaging/README.md",
                    "turbo/results/README.md", "turbo/bench/README.md",
                    "turbo/tests/README.md")
        if os.path.exists(d)]
fails = []


def bad(msg):
    fails.append(msg)
    print("FAIL: " + msg)


def text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# ---- series order = TECHNIQUES order
series = [l.strip()[:-len(".patch")] for l in text("patches/series").splitlines()
          if l.strip().endswith(".patch") and not l.startswith("#")]
sections = re.findall(r"^## ([a-z0-9-]+)\s*$", text("turbo/TECHNIQUES.md"),
                      re.M)
sections = [s for s in sections if s in series or re.match(
    r"^(identity|fix-|adler32-|crc32-|checksums-|deflate-|inflate-|extra-)", s)]
if len(series) < 30:
    bad("patches/series lists %d techniques (expected 30 or more)" % len(series))
if sections != series:
    missing = [s for s in series if s not in sections]
    extra = [s for s in sections if s not in series]
    order = [s for s in sections if s in series]
    msg = "turbo/TECHNIQUES.md sections differ from patches/series"
    if missing:
        msg += "; no section for: " + " ".join(missing)
    if extra:
        msg += "; sections not in the series: " + " ".join(extra)
    if not missing and not extra or order != [s for s in series if s in sections]:
        first = next((i for i, (a, b) in enumerate(zip(order, series)) if a != b), None)
        if first is not None:
            msg += "; order differs at %s (series: %s)" % (order[first], series[first])
    bad(msg)
else:
    print("TECHNIQUES.md: %d sections in the series' order" % len(sections))

# ---- patch messages: the identity argument under one heading, and each
# speed technique's records (checksums, deflate-*, inflate-*)
nres = 0
for name in series:
    t = text("patches/%s.patch" % name)
    msg = t[:t.find("\ndiff --git ")] if "\ndiff --git " in t else t
    subj = re.search(r"^Subject: \[PATCH\] (.*(?:\n .*)*)", msg, re.M)
    if subj and len(" ".join(subj.group(1).split("\n "))) > 72:
        bad("patches/%s.patch: subject longer than 72 characters" % name)
    if len(re.findall(r"^Why the output stays identical:$", msg, re.M)) != 1:
        bad("patches/%s.patch: no (or more than one) line 'Why the output "
            "stays identical:'" % name)
    res = re.findall(r"^Results: (.*)$", msg, re.M)
    if re.match(r"^(adler32-|crc32-|checksums-|deflate-|inflate-)", name) \
            and not res:
        bad("patches/%s.patch: a speed technique with no 'Results:' line" % name)
    for line in res:
        for r in line.split(", "):
            nres += 1
            if not os.path.exists(r.strip()):
                bad("patches/%s.patch: Results: %s does not exist" % (name, r))
print("patch messages: %d, %d records cited" % (len(series), nres))

# ---- test names
tests, suites = set(), set()
for f in glob.glob("turbo/tests/*.cpp"):
    for m in re.finditer(r"^\s*TEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\)",
                         text(f), re.M):
        tests.add(m.group(1) + "." + m.group(2))
        suites.add(m.group(1))
    for m in re.finditer(r"INSTANTIATE_TEST_SUITE_P\(\s*(\w+)\s*,\s*(\w+)",
                         text(f)):
        suites.add(m.group(1) + "/" + m.group(2))
if len(tests) < 50:
    bad("found only %d GoogleTest tests in turbo/tests/*.cpp" % len(tests))
cited = 0
for d in DOCS:
    for m in re.finditer(r"`([A-Z][A-Za-z0-9]+)\.([A-Z*][A-Za-z0-9_*]*)`?",
                         text(d)):
        suite, name = m.group(1), m.group(2)
        if suite not in suites:
            # a file name such as `README.md` or `TECHNIQUES.md` is no test
            if name in ("md", "txt", "tsv", "h", "c") or not any(
                    c.islower() for c in suite):
                continue
            bad("%s cites %s.%s: no suite %s in turbo/tests" % (d, suite, name, suite))
            continue
        cited += 1
        if "*" in name:
            pat = re.compile("^" + re.escape(suite) + r"\." +
                             name.replace("*", ".*") + "$")
            if not any(pat.match(t) for t in tests):
                bad("%s cites %s.%s: no test matches" % (d, suite, name))
        elif suite + "." + name not in tests:
            bad("%s cites %s.%s: no such test" % (d, suite, name))
if cited == 0:
    bad("no test name cited in the docs (nothing checked)")
else:
    print("test names: %d citations checked against %d tests" % (cited, len(tests)))

# ---- mutant counts
nmut = len(glob.glob("turbo/tests/mutants/*.patch"))
counts = 0
for d in DOCS:
    for m in re.finditer(r"\b(\d+) mutants\b", text(d)):
        counts += 1
        if int(m.group(1)) != nmut:
            bad("%s says %s mutants; turbo/tests/mutants has %d" % (d, m.group(1), nmut))
print("mutant counts: %d cited, %d mutants" % (counts, nmut))

# ---- repository paths
paths = missing = 0
for d in DOCS:
    for m in re.finditer(r"(?<![\w./-])((?:turbo|tools|src|patches|packaging|upstream)/[\w./+-]*[\w+-])",
                         text(d)):
        p = m.group(1)
        # templates: turbo/tests/mutants/NAME.patch, ...-DATE-...
        if "*" in p or p.endswith("/...") or "<" in p or re.search(
                r"(^|[/_.-])[A-Z]{3,}([/_.-]|$)", p):
            continue
        paths += 1
        if not os.path.exists(p) and not glob.glob(p + "*"):
            missing += 1
            bad("%s cites %s, which does not exist" % (d, p))
if paths < 20:
    bad("only %d repository paths cited in the docs (expected many)" % paths)
print("paths: %d cited, %d missing" % (paths, missing))

# ---- nothing outside the repository, no issue numbers
for d in DOCS:
    t = text(d)
    for m in re.finditer(r"(?<![\w.])(/(?:work|root|home|mnt)/[\w./-]*)", t):
        bad("%s cites %s, outside the repository" % (d, m.group(1)))
    for m in re.finditer(r"(?<![\w.])(\.\./[\w./-]+)", t):
        p = os.path.normpath(os.path.join(os.path.dirname(d), m.group(1)))
        if m.group(1) == "../..":       # cd ../.. in a tree's example
            continue
        if p.startswith("..") and p != "../shared" and \
                not p.startswith("../shared/corpus"):
            bad("%s cites %s, outside the repository" % (d, m.group(1)))
    for m in re.finditer(r"\b[Ii]ssues? \d+", t):
        bad("%s speaks of %s" % (d, m.group(0)))

print("%d docs checked, %d failed" % (len(DOCS), len(fails)))
sys.exit(1 if fails else 0)
