#!/usr/bin/python3
"""scripts/scaling end to end at a tiny size: strong SCALE 10 and weak SCALE 9 per rank on 1 and
2 ranks with 2 roots, then its report. usage: test_scaling.py BUILD/g500"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "scaling")
BINARY = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build", "g500")


class ScalingScript(unittest.TestCase):
    def test_weak_and_strong_on_one_and_two_ranks(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "runs")
            result = subprocess.run(["bash", SCRIPT, "--out", out, "--ranks", "1 2", "--weak-scale", "9",
                                     "--strong-scale", "10", "--roots", "2", "--binary", BINARY],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
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
                              (["--frobnicate"], "unknown option")):
            result = subprocess.run(["bash", SCRIPT, "--binary", BINARY, *args], capture_output=True, text=True)
            self.assertEqual(result.returncode, 2, args)
            self.assertIn(message, result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
