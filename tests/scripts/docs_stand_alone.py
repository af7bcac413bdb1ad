#!/usr/bin/env python3
"""The repository's documents stand alone: README.md is a front page of at most
250 lines, no document, model or source points to ../shared (outside the
repository), and every relative link of README.md, CONTRIBUTING.md and doc/*.md
resolves, to a file and, for a #fragment into a Markdown page, to one of its
headings. Tests may read ../shared/conformance (herd7's and Dat3M's results),
nothing else there. Usage: docs_stand_alone.py SOURCE_DIR"""

import pathlib
import re
import sys

MAX_README_LINES = 250
NO_SHARED_IN = ["README.md", "CONTRIBUTING.md", "doc", "models", "src", "include"]
# A test's path into the shared folder: sharedDir() + "/<folder>" or ../shared/<folder>.
SHARED_PATH = re.compile(rb'(?:sharedDir\(\)\s*\+\s*"/|\.\./shared/)(\w+)')
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def files_under(root, name):
    path = root / name
    return [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page):
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", page.read_text(), re.M)}


def link_errors(page):
    errors = []
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # code blocks hold no links
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto:
        path, _, fragment = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            errors.append(f"{page}: link to {target}: no such file")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            errors.append(f"{page}: link to {target}: no heading #{fragment} in {resolved.name}")
    return errors


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    errors = []
    readme_lines = len((root / "README.md").read_text().splitlines())
    if readme_lines > MAX_README_LINES:
        errors.append(f"README.md has {readme_lines} lines, more than {MAX_README_LINES}: move the rest to doc/")
    for name in NO_SHARED_IN:
        for f in files_under(root, name):
            if b"../shared" in f.read_bytes():
                errors.append(f"{f}: points to ../shared, outside the repository")
    for f in files_under(root, "tests"):
        for folder in SHARED_PATH.findall(f.read_bytes()):
            if folder != b"conformance":
                errors.append(f"{f}: reads ../shared/{folder.decode()}; tests may read only ../shared/conformance")
    pages = [root / "README.md", root / "CONTRIBUTING.md"] + sorted((root / "doc").glob("*.md"))
    for page in pages:
        errors += link_errors(page)
    for e in errors:
        print(e, file=sys.stderr)
    print(f"docs_stand_alone: README.md {readme_lines} lines, {len(pages)} pages' links checked, "
          f"{len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
