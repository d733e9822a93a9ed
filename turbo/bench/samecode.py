#!/usr/bin/env python3
# samecode.py OLD.o NEW.o [OLD.o NEW.o ...]
#
# Compares the machine code of two builds function by function: objdump -d
# of each object, addresses stripped, jump targets kept as symbol+offset,
# gcc's clone suffixes (.isra.0, .part.1, ...) normalised.  Prints one line
# per pair of objects: "identical", or the functions that differ with their
# instruction counts (old/new; 0 = absent).  Exit status 0 when every pair
# is identical.  Use it to show that a change that should not touch the code
# (a refactoring, a comment, a new header) did not: identical instructions
# run at the same speed, whatever the benchmark's noise.  Example:
#   python3 turbo/bench/samecode.py old/deflate.o new/deflate.o old/inffast.o new/inffast.o
import re
import subprocess
import sys


def functions(obj):
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-r', obj],
                         capture_output=True, text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r'^[0-9a-f]+ <(.+)>:$', line)
        if m:
            cur = re.sub(r'\.(constprop|isra|part|cold)\.\d+', r'.\1', m.group(1))
            funcs[cur] = []
            continue
        if cur is None or not line.strip():
            continue
        line = re.sub(r'^\s*[0-9a-f]+:\s*', '', line)
        line = re.sub(r'\b[0-9a-f]+ <', '<', line)
        line = re.sub(r'\.(constprop|isra|part|cold)\.\d+', r'.\1', line)
        funcs[cur].append(line)
    return funcs


def main(args):
    if not args or len(args) % 2:
        sys.exit('usage: samecode.py OLD.o NEW.o [OLD.o NEW.o ...]')
    same = True
    for old, new in zip(args[0::2], args[1::2]):
        a, b = functions(old), functions(new)
        diff = [f for f in sorted(set(a) | set(b)) if a.get(f) != b.get(f)]
        print('%-16s %3d functions, %s' % (old.split('/')[-1], len(a),
              'identical' if not diff else 'DIFFER: ' + ' '.join(
                  '%s(%d/%d)' % (f, len(a.get(f, [])), len(b.get(f, [])))
                  for f in diff)))
        same = same and not diff
    return 0 if same else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
