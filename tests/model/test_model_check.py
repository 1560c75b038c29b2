#!/usr/bin/env python3
"""scripts/model-check prints one line per published point in the agreed form, exactly one of them
marked `calibration`, and --update-docs rewrites only the marked table (on a copy of the docs);
tools/g500report draws model.png from its JSON and a series of `g500 model --json`."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FORM = re.compile(r"^(fugaku|k) nodes=\d+ scale=\d+ published=\d+ predicted=\d+ error=[+-]\d+\.\d%( calibration)? \[.+\]$")


def check_report(binary, work, published):
    series_file = os.path.join(work, "weak.json")
    subprocess.run([binary, "model", "--nodes", "9936,39744,158976", "--scale-per-node", "24", "--clock", "2.2",
                    "--json", series_file], check=True, capture_output=True)
    dump = os.path.join(work, "series.json")
    subprocess.run([os.path.join(ROOT, "tools", "g500report"), published, series_file, "--out",
                    os.path.join(work, "report"), "--dump-series", dump], check=True, capture_output=True)
    import json
    with open(dump, encoding="utf-8") as f:
        model = json.load(f)["model"]
    assert model["lines_drawn"] == 1 and model["lines"][0]["nodes"] == [9936, 39744, 158976], model
    assert model["points_drawn"] == 16 and model["bars_drawn"] == 8 * 6, model
    assert os.path.exists(os.path.join(work, "report", "model.png"))


def main():
    binary = sys.argv[1]
    work = tempfile.mkdtemp(prefix="model-check-test-")
    published = os.path.join(work, "published.json")
    out = subprocess.run([os.path.join(ROOT, "scripts", "model-check"), "--binary", binary, "--json", published],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == 8, out
    for line in out:
        assert FORM.match(line), line
    assert sum(" calibration" in line for line in out) == 1, out
    assert any(line.startswith("fugaku nodes=158976 scale=41 published=102956 ") for line in out), out
    assert any(line.startswith("k nodes=82944 scale=40 published=31302 ") for line in out), out
    check_report(binary, work, published)
    # --update-docs on a copy of the repository's scripts and docs.
    os.makedirs(os.path.join(work, "scripts"))
    os.makedirs(os.path.join(work, "docs"))
    shutil.copy(os.path.join(ROOT, "scripts", "model-check"), os.path.join(work, "scripts"))
    with open(os.path.join(work, "docs", "model.md"), "w", encoding="utf-8") as f:
        f.write("before\n<!-- model-check begin -->\nold\n<!-- model-check end -->\nafter\n"
                "<!-- model-sensitivity begin -->\nold\n<!-- model-sensitivity end -->\n"
                "<!-- model-future begin -->\nold\n<!-- model-future end -->\n"
                "<!-- model-shares begin -->\nold\n<!-- model-shares end -->\n")
    subprocess.run([os.path.join(work, "scripts", "model-check"), "--binary", binary, "--update-docs"], check=True,
                   capture_output=True)
    with open(os.path.join(work, "docs", "model.md"), encoding="utf-8") as f:
        text = f.read()
    assert text.startswith("before\n<!-- model-check begin -->\n| system | nodes |"), text
    assert "<!-- model-check end -->\nafter\n" in text, text
    assert "old" not in text and text.count("| fugaku |") == 7 and "(calibration)" in text, text
    # The sensitivity rows: one per alternative, an error per predicted point (or why it cannot be calibrated).
    sensitivity = text[text.index("<!-- model-sensitivity begin -->"):text.index("<!-- model-sensitivity end -->")]
    assert sensitivity.count("\n| ") == 6 and "| K 82,944 |" in sensitivity, sensitivity
    future = text[text.index("<!-- model-future begin -->"):text.index("<!-- model-future end -->")]
    assert "whole Fugaku, SCALE 41" in future and "fat tree, same injection" in future, future
    shares = text[text.index("<!-- model-shares begin -->"):text.index("<!-- model-shares end -->")]
    assert shares.count("| 158,976 | 41 |") == 2 and shares.count("\n| ") == 7, shares
    shutil.rmtree(work)
    print("model-check: form ok")


if __name__ == "__main__":
    main()
