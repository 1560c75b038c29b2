#!/usr/bin/python3
"""Every relative link of README.md and docs/**/*.md leads somewhere: the file or folder it names
exists in the checkout, and a #anchor names a heading of the page it points to (GitHub's rule:
lower case, punctuation but '-' and '_' dropped, spaces as '-', a repeated heading numbered -1,
-2, ...). Links to the web (http, https, mailto) are not followed. Prints one line per broken
link (file:line: target: why) and exits 1 if there is any. usage: test_doc_links.py [TOP]"""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.normpath(os.path.join(HERE, "..", ".."))
# [text](target) and ![alt](target); the target ends at whitespace or ')'.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
WEB = ("http://", "https://", "mailto:")


def prose_lines(path):
    """(line number, text) of the lines outside ``` fences."""
    inside = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                inside = not inside
                continue
            if not inside:
                yield number, line


def slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = text.lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for _, line in prose_lines(path):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    for explicit in re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", open(path, encoding="utf-8").read()):
        result.add(explicit)
    return result


def broken_links(page, anchor_cache, checked):
    for number, line in prose_lines(page):
        line = re.sub(r"`[^`]*`", "", line)  # code spans are not links
        for target in LINK.findall(line):
            if target.startswith(WEB):
                continue
            checked.append(target)
            name, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), name)) if name else page
            if not os.path.exists(dest):
                yield number, target, "no such file"
                continue
            if anchor and dest.endswith(".md"):
                if dest not in anchor_cache:
                    anchor_cache[dest] = anchors(dest)
                if anchor not in anchor_cache[dest]:
                    yield number, target, "no such heading"


def main():
    pages = [os.path.join(TOP, "README.md")]
    pages += sorted(glob.glob(os.path.join(TOP, "docs", "**", "*.md"), recursive=True))
    cache, failures, checked = {}, 0, []
    for page in pages:
        for number, target, why in broken_links(page, cache, checked):
            print(f"{os.path.relpath(page, TOP)}:{number}: {target}: {why}")
            failures += 1
    print(f"test_doc_links: {len(checked)} links of {len(pages)} pages, {failures} broken")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
