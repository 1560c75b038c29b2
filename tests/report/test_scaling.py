#!/usr/bin/python3
"""scripts/scaling end to end at a tiny size: strong SCALE 10 and weak SCALE 9 per rank on 1 and
2 ranks with 2 roots, then its report; its refusals, and numbers that bash would evaluate as
expressions (running a command) refused as text first. usage: test_scaling.py BUILD/g500"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "scaling")
BINARY = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build", "g500"))


class ScalingScript(unittest.TestCase):
    def test_weak_and_strong_on_one_and_two_ranks(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "runs")
            result = subprocess.run(["bash", SCRIPT, "--out", out, "--ranks", "1 2", "--weak-scale", "9",
                                     "--strong-scale", "10", "--roots", "2", "--binary", BINARY],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn(f"scaling: weak SCALE 9 on 1 rank -> {out}/weak-s9-np1.json\n", result.stderr)
            self.assertIn(f"scaling: strong SCALE 10 on 2 ranks -> {out}/strong-s10-np2.json\n", result.stderr)
            names = sorted(f for f in os.listdir(out) if f.endswith(".json"))
            self.assertEqual(names, ["strong-s10-np1.json", "strong-s10-np2.json", "weak-s10-np2.json",
                                     "weak-s9-np1.json"])
            for name in names:
                with open(os.path.join(out, name)) as f:
                    data = json.load(f)
                self.assertEqual(len(data["roots"]), 2)
                self.assertEqual(data["config"]["ranks"], 1 if "np1" in name else 2)
            with open(os.path.join(out, "report", "series.json")) as f:
                series = json.load(f)
            self.assertEqual(series["scaling"]["points_drawn"], {"bfs weak SCALE 9/rank": 2, "bfs strong SCALE 10": 2})
            self.assertTrue(os.path.getsize(os.path.join(out, "report", "scaling.png")) > 1000)
            self.assertTrue(os.path.exists(os.path.join(out, "report", "report.html")))

    def test_bad_options(self):
        for args, message in ((["--mode", "sideways"], "--mode must be weak, strong or both"),
                              (["--mode", "weak", "--ranks", "3"], "power-of-two rank counts"),
                              (["--binary", "/nonexistent/g500"], "no g500 binary"),
                              (["--frobnicate"], "unknown option"),
                              (["--ranks", ""], "--ranks needs a value"),
                              (["--roots"], "--roots needs a value")):
            result = subprocess.run(["bash", SCRIPT, "--binary", BINARY, *args], capture_output=True, text=True)
            self.assertEqual(result.returncode, 2, args)
            self.assertIn(message, result.stderr)

    def test_numbers_are_checked_as_text_before_any_arithmetic(self):
        # bash evaluates a name in $(( )) as an expression: 'x[$(touch FILE)]' would run touch.
        with tempfile.TemporaryDirectory() as tmp:
            canary = os.path.join(tmp, "canary")
            payload = f"x[$(touch {canary})]"
            cases = [("--weak-scale", payload, "1 to 42"), ("--strong-scale", payload, "1 to 42"),
                     ("--roots", payload, "1 to 2147483647"), ("--threads", payload, "1 to 2147483647"),
                     ("--ranks", "1 2," + payload, "1 to 65536"), ("--ranks", "*", "1 to 65536"),
                     ("--weak-scale", "1e3", "1 to 42"), ("--roots", "-4", "1 to 2147483647")]
            for option, value, bounds in cases:
                for mode in ("weak", "strong"):
                    result = subprocess.run(["bash", SCRIPT, "--binary", BINARY, "--out", os.path.join(tmp, "runs"),
                                             "--mode", mode, "--no-report", option, value],
                                            capture_output=True, text=True, cwd=tmp)
                    # A list is checked item by item: the first that is not a number is named.
                    item = next(i for i in re.split("[ ,]", value) if not i.isdigit()) if option == "--ranks" else value
                    self.assertEqual(result.returncode, 2, (option, value, result.stderr))
                    self.assertEqual(result.stderr, f"scripts/scaling: error: {option} must be a whole number from "
                                                    f"{bounds} (got '{item}')\n")
                    self.assertFalse(os.path.exists(canary), (option, mode))
            self.assertEqual(os.listdir(tmp), [], "nothing run, nothing written")

    def test_a_weak_scale_beyond_scale_42_is_refused(self):
        result = subprocess.run(["bash", SCRIPT, "--binary", BINARY, "--weak-scale", "40", "--ranks", "1 8"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, "scripts/scaling: error: --weak-scale 40 on 8 ranks is SCALE 43, above 42\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
