#!/usr/bin/python3
"""The examples of docs/ shown with their output (``` blocks whose lines starting with '$ ' are
commands, the lines after each its output) print what the docs show, for the commands whose output
is fixed: g500 map and g500 jobscript, and cat or sed of a file an earlier one wrote. Each block
runs in an empty directory; a block with another command is an excerpt and is left alone.
usage: test_doc_examples.py BUILD/g500"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
BINARY = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(TOP, "build", "g500"))
FIXED_OUTPUT = re.compile(r"^(?:(?:build/)?g500 (?:map|jobscript) |cat |sed )")


def fenced_blocks(path):
    """The text of each ``` block without a language (a block with one, ```sh, is not output)."""
    blocks, lines, plain = [], None, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("```"):
                if lines is not None:
                    lines.append(line)
            elif lines is None:
                lines, plain = [], line.strip() == "```"
            else:
                if plain:
                    blocks.append("".join(lines))
                lines = None
    return blocks


def examples():
    """(page, [(command, expected output)]) of each block of commands with their output."""
    for page in sorted(glob.glob(os.path.join(TOP, "docs", "*.md"))):
        for block in fenced_blocks(page):
            if not block.startswith("$ "):
                continue
            steps = []
            for line in block.splitlines(keepends=True):
                if line.startswith("$ "):
                    steps.append([line[2:].strip(), ""])
                else:
                    steps[-1][1] += line
            if all(FIXED_OUTPUT.match(command) for command, _ in steps):
                yield os.path.relpath(page, TOP), steps


class DocExamples(unittest.TestCase):
    def test_each_example_prints_what_the_docs_show(self):
        blocks = list(examples())
        pages = {page for page, _ in blocks}
        self.assertTrue({"docs/topo.md", "docs/report.md"} <= pages, pages)
        for page, steps in blocks:
            with tempfile.TemporaryDirectory() as tmp:
                for command, expected in steps:
                    words = shlex.split(command)
                    if words[0] in ("g500", "build/g500"):
                        words[0] = BINARY
                    result = subprocess.run(words, cwd=tmp, capture_output=True, text=True, timeout=120)
                    with self.subTest(page=page, command=command):
                        self.assertEqual(result.returncode, 0, result.stderr)
                        self.assertEqual(result.stdout + result.stderr, expected)


if __name__ == "__main__":
    unittest.main()
