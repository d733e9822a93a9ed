"""tools/check/clients/gitrepo.py DIR LEVEL COMMITS FILE... -- a git
repository with history, made by git's own commands: the first commit adds
the files, each later one edits four of them (deletes a run of lines, copies
a run to another place, changes a line), with fixed names and dates, so that
it is the same repository whichever zlib git runs on.  core.compression is
LEVEL, gc.auto 0 (every object stays loose until the caller's git gc)."""
import os
import random
import subprocess
import sys

out, level, commits, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
env = dict(os.environ, GIT_AUTHOR_NAME="zlib-turbo", GIT_AUTHOR_EMAIL="zt@invalid",
           GIT_COMMITTER_NAME="zlib-turbo", GIT_COMMITTER_EMAIL="zt@invalid",
           GIT_CONFIG_NOSYSTEM="1", HOME=out)


def git(*args):
    subprocess.run(("git", "-C", out) + args, env=env, check=True,
                   stdout=subprocess.DEVNULL)


os.makedirs(out)
git("init", "-q", "-b", "main")
for k, v in (("core.compression", level), ("gc.auto", "0"), ("pack.threads", "1"),
             ("core.autocrlf", "false"), ("commit.gpgsign", "false")):
    git("config", k, v)
texts = {}
for f in files:
    name = "%s/%s" % (os.path.basename(os.path.dirname(f)), os.path.basename(f))
    with open(f, "rb") as fh:
        texts[name] = fh.read().split(b"\n")
names = sorted(texts)
for k in range(commits):
    rng = random.Random(k)
    changed = names if k == 0 else rng.sample(names, min(4, len(names)))
    for name in changed:
        lines = texts[name]
        if k:
            if len(lines) > 60:
                a = rng.randrange(len(lines))
                del lines[a:a + rng.randint(1, 30)]
            a, b = rng.randrange(len(lines) + 1), rng.randrange(len(lines) + 1)
            lines[b:b] = lines[a:a + rng.randint(1, 30)]
            c = rng.randrange(len(lines))
            lines[c] = lines[c][::-1] + b" %d" % k
        p = os.path.join(out, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as fh:
            fh.write(b"\n".join(lines))
    date = "@%d +0000" % (1700000000 + 3600 * k)
    env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    git("add", "-A")
    git("commit", "-q", "-m", "version %d" % k)
