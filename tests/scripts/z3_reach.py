#!/usr/bin/env python3
"""tests/scripts/z3_reach.py SOURCE_DIR: Z3 reaches only the encoder and the
solver. Follows every `#include "..."` of each source under src/ and each
public header under include/ (beside the including file first, then include/,
as the compiler does) and fails if a file outside src/encode/ and src/solve/
reaches <z3++.h> or <z3.h>. Prints how many sources reach Z3."""
import os, re, sys

root = os.path.abspath(sys.argv[1])
allowed = [os.path.join(root, "src", d) + os.sep for d in ("encode", "solve")]
quoted = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
z3 = re.compile(r'^\s*#\s*include\s+[<"]z3(\+\+)?\.h[>"]', re.M)
cache = {}


def text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def resolve(name, beside):
    for base in (beside, os.path.join(root, "include")):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(path):
            return path
    return None


def reaches_z3(path, walking=()):
    """The include chain from `path` to Z3, or None."""
    if path in cache:
        return cache[path]
    if path in walking:  # a cycle: #pragma once ends it
        return None
    content = text(path)
    chain = [path] if z3.search(content) else None
    for name in quoted.findall(content):
        if chain:
            break
        target = resolve(name, os.path.dirname(path))
        below = target and reaches_z3(target, walking + (path,))
        if below:
            chain = [path] + below
    cache[path] = chain
    return chain


def files(top, suffixes):
    for folder, _, names in os.walk(os.path.join(root, top)):
        for n in sorted(names):
            if n.endswith(suffixes):
                yield os.path.join(folder, n)


sources = sorted(files("src", (".cpp",)))
checked = sources + sorted(files("include", (".hpp", ".ipp", ".h")))
reach = [s for s in sources if reaches_z3(s)]
print("%d of %d sources reach Z3" % (len(reach), len(sources)))
wrong = [f for f in checked if reaches_z3(f) and not any(f.startswith(a) for a in allowed)]
for f in wrong:
    print("outside the encoder and solver: " + " -> ".join(os.path.relpath(p, root) for p in reaches_z3(f)))
sys.exit(1 if wrong else 0)
