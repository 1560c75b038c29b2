#!/usr/bin/python3
"""tools/g500report against what g500 printed: a real `g500 bfs` and `g500 sssp --compare-dijkstra`
run (SCALE 8, 2 ranks, 4 roots, about a second each) made here, whose text output must have every
number in the run's report, with the SSSP steps and the Dijkstra comparison computed from the JSON.
Then, on copies of the BFS run: the phases drawn side by side on a log axis when the runs' times
per search differ by more than 20x (not otherwise), '1 run' and '2 runs'; on the stored fixtures: runs left out
of the series named, an oversubscribed point said 'at 4 ranks' and crossed, the efficiencies as
numbers on the points.
usage: test_report_details.py BUILD/g500 MPIEXEC [MPIEXEC_FLAGS]"""
import copy
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "g500report")
FIXTURES = os.path.join(HERE, "fixtures")
NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[+-]\d+)?")
RANKS, SCALE, ROOTS, DIJKSTRA_ROOTS = 2, 8, 4, 2
BINARY, MPIEXEC, MPIEXEC_FLAGS = sys.argv[1], sys.argv[2], sys.argv[3].split() if len(sys.argv) > 3 else []


def run_tool(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


def page_text(page):
    """The page as text: the style and the inlined pictures out, tags out, entities decoded."""
    page = re.sub(r'src="data:image/png;base64,[^"]*"|<style>.*</style>', "", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f)
    return path


class RealRuns(unittest.TestCase):
    """One bfs and one sssp run, made once for the class."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.printed, cls.data = {}, {}
        env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE")
        for kernel, extra in (("bfs", []), ("sssp", ["--compare-dijkstra", str(DIJKSTRA_ROOTS)])):
            path = os.path.join(cls.tmp.name, kernel + ".json")
            done = subprocess.run([MPIEXEC, *MPIEXEC_FLAGS, "-n", str(RANKS), BINARY, kernel, "--scale", str(SCALE),
                                   "--roots", str(ROOTS), "--threads", "1", *extra, "--json", path],
                                  capture_output=True, text=True, env=env, timeout=120)
            assert done.returncode == 0, done.stderr
            cls.printed[kernel] = done.stdout
            with open(path) as f:
                cls.data[kernel] = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def report(self, *files):
        """The tool on `files`: (its stdout, the page, the dumped series)."""
        with tempfile.TemporaryDirectory() as tmp:
            out, dump = os.path.join(tmp, "out"), os.path.join(tmp, "series.json")
            result = run_tool(*files, "--out", out, "--dump-series", dump)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(out, "report.html")) as f, open(dump) as g:
                return result.stdout, f.read(), json.load(g)

    def page_of(self, kernel):
        stdout, page, _ = self.report(os.path.join(self.tmp.name, kernel + ".json"))
        self.assertIn("g500report: 1 run -> ", stdout)
        return page_text(page)

    def assert_every_number_printed_is_in(self, kernel, text):
        missing = sorted({n for n in NUMBER.findall(self.printed[kernel]) if n not in text})
        self.assertEqual(missing, [], f"numbers g500 {kernel} printed that its report lacks")

    def test_input_edges_are_the_kronecker_graphs_m(self):
        for data in self.data.values():
            self.assertEqual(data["summary"]["input_edges"], data["summary"]["edgefactor"] << SCALE)

    def test_bfs_report_has_every_number_printed(self):
        text = self.page_of("bfs")
        self.assert_every_number_printed_is_in("bfs", text)
        self.assertNotIn("SSSP steps", text)

    def test_kernel1_steps_rounded_as_g500_prints_them(self):
        """A loaded machine makes a step 0.0153 s: g500 prints 0.02 and so must the report."""
        data = copy.deepcopy(self.data["bfs"])
        steps = ("generate", "route", "bucket", "plan", "mirror", "fill")
        data["memory"]["kernel1_seconds_max_rank"] = {k: 0.0153 * (i + 1) for i, k in enumerate(steps)}
        with tempfile.TemporaryDirectory() as tmp:
            _, page, _ = self.report(write_json(os.path.join(tmp, "bfs.json"), data))
        self.assertIn("generate 0.02 s, route 0.03 s, bucket 0.05 s, plan 0.06 s, mirror 0.08 s, fill 0.09 s",
                      page_text(page))

    def test_sssp_report_has_every_number_printed_and_its_steps_and_dijkstra(self):
        text = self.page_of("sssp")
        self.assert_every_number_printed_is_in("sssp", text)
        data = self.data["sssp"]
        roots = data["roots"]
        total = sum(r["time_s"] for r in roots)
        light = sum(r["steps_s"]["light"] for r in roots)
        light_edges = sum(r["relaxations_light"] for r in roots)
        self.assertIn(f"SSSP steps (rank 0's clock, summed over {ROOTS} searches)", text)
        self.assertIn(f"light phases {light:.4f} {100 * light / total:.1f} {light_edges / 1e6:.2f}", text)
        d = data["dijkstra"]
        self.assertEqual(d["roots"], DIJKSTRA_ROOTS)
        self.assertIn(f"Serial Dijkstra on rank 0 over the first {DIJKSTRA_ROOTS} roots", text)
        self.assertIn(f"speed-up over Dijkstra {d['speedup']:.2f}", text)
        self.assertIn("distances agree with Dijkstra yes", text)
        # SSSP files have no volumes: the bytes per input edge come from summary.input_edges.
        memory = data["memory"]
        per_edge = memory["graph_bytes_max_rank"] * RANKS / data["summary"]["input_edges"]
        self.assertIn(f"{per_edge:.2f} bytes per input edge", text)

    def test_phases_side_by_side_on_a_log_axis_only_when_runs_differ_over_20x(self):
        fast = self.data["bfs"]
        for factor, expected in ((100, True), (10, False)):
            slow = copy.deepcopy(fast)
            for phase in slow["profile"].values():
                phase["seconds"] *= factor
            slow["provenance"]["date"] += " (slow copy)"  # two runs told apart
            with tempfile.TemporaryDirectory() as tmp:
                stdout, _, series = self.report(write_json(os.path.join(tmp, "fast.json"), fast),
                                                write_json(os.path.join(tmp, "slow.json"), slow))
            self.assertEqual(series["breakdown"]["phases_side_by_side"], expected, factor)
            self.assertIn("g500report: 2 runs -> ", stdout)
            if expected:  # two runs, five phases, both panels (a phase of 0 s is drawn as no bar)
                self.assertEqual(series["breakdown"]["bars_drawn"], 2 * 5 * 2)


class SeriesOfTheStoredRuns(unittest.TestCase):
    """The strong series of SCALE 10 on 1, 2, 4 ranks, its 4-rank run oversubscribed, beside a
    --disable run of the same configuration."""

    def test_left_out_runs_named_oversubscribed_at_4_ranks_efficiencies_drawn(self):
        with tempfile.TemporaryDirectory() as tmp:
            inputs = []
            for name, cores in (("bfs-s10-np1", 8), ("bfs-s10-np2", 8), ("bfs-s10-np4", 2),
                                ("bfs-s10-np1-off-bcsr", 8)):
                with open(os.path.join(FIXTURES, name + ".json")) as f:
                    data = json.load(f)
                data["config"]["node"] = {"ranks": data["config"]["ranks"], "cores": cores}
                inputs.append(write_json(os.path.join(tmp, name + ".json"), data))
            dump = os.path.join(tmp, "series.json")
            result = run_tool(*inputs, "--out", os.path.join(tmp, "out"), "--dump-series", dump)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(dump) as f:
                series = json.load(f)
        lines = series["series_text"]
        strong = next(line for line in lines if line.startswith("bfs strong SCALE 10:"))
        self.assertIn("; ranks 1, 2, 4; oversubscribed (more ranks x threads than cores) at 4 ranks:", strong)
        left_out = [line for line in lines if line.startswith("left out of the series")]
        self.assertEqual(len(left_out), 1, lines)
        self.assertIn("bfs S10 1r 1x1 1t -bcsr (", left_out[0])
        self.assertIn(left_out[0], result.stdout)
        scaling = series["scaling"]
        points = sum(len(s["ranks"]) for s in scaling["series"].values())
        crossed = sum(len(s["oversubscribed_ranks"]) for s in scaling["series"].values())
        self.assertGreaterEqual(crossed, 1)
        self.assertEqual(scaling["efficiency_numbers_drawn"], points)
        self.assertEqual(scaling["oversubscribed_crosses_drawn"], 2 * crossed)  # on both panels


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
