#!/usr/bin/python3
"""tools/g500report on the stored result files in tests/report/fixtures (made by make_fixtures.sh
with the real binary): every picture is a valid PNG, the HTML page embeds them all, and the
series drawn (from --dump-series) have the expected numbers of bars and points. Hand-edited
copies of them: markup in their strings is escaped in the page, and fields of the wrong type are
one line naming the file and the field, with nothing written."""
import concurrent.futures
import copy
import html
import html.parser
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "g500report")
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import report_scaling  # noqa: E402
FIXTURES = os.path.join(HERE, "fixtures")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PHASES = 5


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    assert head[12:16] == b"IHDR", f"{path} has no IHDR chunk"
    return struct.unpack(">II", head[16:24])


def run_tool(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


class ReportFromFixtures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fixtures = {}
        for name in sorted(os.listdir(FIXTURES)):
            if name.endswith(".json"):
                with open(os.path.join(FIXTURES, name)) as f:
                    cls.fixtures[name] = json.load(f)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = os.path.join(cls.tmp.name, "report")
        series_path = os.path.join(cls.tmp.name, "series.json")
        result = run_tool(FIXTURES, "--out", cls.out, "--dump-series", series_path, "--title", "fixture report")
        assert result.returncode == 0, result.stderr
        with open(series_path) as f:
            cls.series = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_fixtures_are_real_results(self):
        self.assertGreaterEqual(len(self.fixtures), 10)
        for name, data in self.fixtures.items():
            self.assertTrue(data["summary"]["validation_passed"], name)
            self.assertEqual(len(data["roots"]), 4, name)

    def test_every_picture_is_a_png(self):
        expected = {"breakdown", "breakdown_sssp", "teps", "levels", "directions", "scaling", "ablation"}
        self.assertEqual(set(self.series["pictures"]), expected)
        for name in expected:
            path = os.path.join(self.out, name + ".png")
            self.assertGreater(os.path.getsize(path), 1000, path)
            width, height = png_size(path)
            self.assertGreater(width, 400, path)
            self.assertGreater(height, 300, path)

    def test_html_embeds_every_picture(self):
        with open(os.path.join(self.out, "report.html")) as f:
            page = f.read()
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        self.assertTrue(page.rstrip().endswith("</html>"))
        self.assertEqual(page.count('src="data:image/png;base64,'), len(self.series["pictures"]))
        self.assertNotIn('src="breakdown.png"', page)
        self.assertIn("fixture report", page)
        for run in self.series["runs"]:
            self.assertIn(run, page)

    def test_breakdown_has_a_stacked_bar_per_run_and_phase_bfs_and_sssp_apart(self):
        """An SSSP run among the BFS runs' bars compared unlike searches: each kernel has its own chart."""
        for name, kernel in (("breakdown", "bfs"), ("breakdown_sssp", "sssp")):
            b = self.series[name]
            runs = sum(1 for data in self.fixtures.values() if data["config"].get("kernel", "bfs") == kernel)
            self.assertEqual(runs, 11 if kernel == "bfs" else 2)
            self.assertEqual(b["kernel"], kernel.upper())
            self.assertEqual(len(b["runs"]), runs)
            self.assertEqual(b["phases"], ["calculation", "allgatherv", "alltoallv", "sendrecv", "imbalance"])
            self.assertEqual(b["bars_drawn"], 2 * PHASES * runs)  # time and share panels
            for i in range(runs):
                self.assertAlmostEqual(sum(b["share_percent"][p][i] for p in b["phases"]), 100.0, places=6)
        # The labels drop what all the chart's runs share, the kernel among it.
        self.assertEqual(self.series["breakdown_sssp"]["runs"], ["1r 1x1", "2r 2x1"])
        self.assertFalse(any("sssp" in label for label in self.series["breakdown"]["runs"]))
        with open(os.path.join(self.out, "report.html")) as f:
            page = f.read()
        self.assertLess(page.index("<h2>Time per phase (BFS)</h2>"), page.index("<h2>Time per phase (SSSP)</h2>"))
        self.assertIn("<figcaption>Time per phase of the SSSP runs, apart from the BFS runs", page)

    def test_teps_has_every_root_and_a_harmonic_mean_line_per_run(self):
        t = self.series["teps"]
        self.assertEqual(len(t["runs"]), len(self.fixtures))
        self.assertEqual(t["points_drawn"], [4] * len(self.fixtures))
        self.assertEqual(t["lines_drawn"], len(self.fixtures))
        by_label = dict(zip(t["runs"], t["harmonic_mean"]))
        data = self.fixtures["bfs-s10-np1.json"]
        self.assertAlmostEqual(by_label["bfs S10 1r 1x1 1t"], data["summary"]["harmonic_mean_TEPS"])
        data = self.fixtures["sssp-s8-np1.json"]
        self.assertAlmostEqual(by_label["sssp S8 1r 1x1 1t"], data["summary"]["sssp_harmonic_mean_TEPS"])

    def test_levels_of_the_traced_root(self):
        lv = self.series["levels"]
        self.assertEqual(lv["run"], "bfs S10 1r 1x1 1t")
        roots = {r["root"]: r for r in self.fixtures["bfs-s10-np1.json"]["roots"]}
        levels = roots[lv["root"]]["levels"]
        self.assertEqual(len(lv["levels"]), len(levels))
        self.assertEqual(lv["bars_drawn"], 3 * len(levels))  # frontier, edges, time
        self.assertEqual([r["direction"] for r in lv["levels"]], [l["direction"] for l in levels])
        self.assertEqual(lv["levels"][0]["frontier"], 1)      # the root alone
        self.assertIn("bottom-up", [r["direction"] for r in lv["levels"]])
        total = sum(e["top-down"] + e["bottom-up"] for e in lv["summed_over_roots"])
        self.assertEqual(total, sum(l["edges_examined"] for r in roots.values() for l in r["levels"]))

    def test_directions_compare_one_root_of_the_three_modes(self):
        d = self.series["directions"]
        self.assertEqual(d["modes"], ["top-down", "bottom-up", "hybrid"])
        self.assertEqual(d["runs"]["hybrid"], "bfs S10 1r 1x1 1t")
        self.assertEqual(d["runs"]["top-down"], "bfs S10 1r 1x1 1t alpha=1e-12")
        self.assertEqual(d["bars_drawn"], 3 * d["levels"])
        for mode, name in (("top-down", "bfs-s10-np1-top-down-only.json"), ("bottom-up", "bfs-s10-np1-bottom-up-only.json"),
                           ("hybrid", "bfs-s10-np1.json")):
            root = next(r for r in self.fixtures[name]["roots"] if r["root"] == d["root"])
            self.assertEqual(d["total"][mode], sum(l["edges_examined"] for l in root["levels"]), mode)
            self.assertEqual({l["direction"] for l in root["levels"]} == {"top-down", "bottom-up"}, mode == "hybrid")
        self.assertEqual(d["rate_percent"]["top-down"], 100.0)
        self.assertLess(d["rate_percent"]["hybrid"], 50.0)  # the point of switching

    def test_scaling_series(self):
        s = self.series["scaling"]
        self.assertEqual(set(s["series"]), {"bfs weak SCALE 10/rank", "bfs strong SCALE 10", "sssp strong SCALE 8"})
        self.assertEqual(s["points_drawn"], {"bfs weak SCALE 10/rank": 3, "bfs strong SCALE 10": 3,
                                             "sssp strong SCALE 8": 2})
        for name, one in s["series"].items():
            self.assertEqual(one["ranks"], [1, 2, 4] if name.startswith("bfs") else [1, 2])
            self.assertEqual(one["efficiency"][0], 1.0)
            expected = [(t / p) / one["teps"][0] for p, t in zip(one["ranks"], one["teps"])]
            for got, want in zip(one["efficiency"], expected):
                self.assertAlmostEqual(got, want)
        weak = s["series"]["bfs weak SCALE 10/rank"]
        self.assertAlmostEqual(weak["teps"][2], self.fixtures["bfs-s12-np4.json"]["summary"]["harmonic_mean_TEPS"])

    def test_ablation_bars(self):
        a = self.series["ablation"]
        self.assertEqual(len(a["groups"]), 1)
        group = a["groups"][0]
        self.assertEqual(group["config"], "bfs S10 1r 1x1 1t")
        self.assertEqual(group["switched_off"][0], "nothing")
        self.assertEqual(len(group["switched_off"]), 5)
        self.assertIn("bcsr", group["switched_off"])
        self.assertIn("bcsr,bu-alltoallv,degree-sort,lb-topdown", group["switched_off"])
        self.assertEqual(a["bars_drawn"], [5])
        self.assertEqual(group["relative"][0], 1.0)


class ScalingNumbersStayInTheirPanel(unittest.TestCase):
    """The efficiency beside the point of the most ranks ran past the panel's right edge; four
    series stacked their numbers at 1.00 above the top."""

    def test_every_efficiency_number_is_inside_the_panel(self):
        def one(kind, efficiency, oversubscribed=()):
            return {"kind": kind, "ranks": [1, 2, 4], "teps": [1e9 * e * p for p, e in zip((1, 2, 4), efficiency)],
                    "efficiency": efficiency, "oversubscribed_ranks": list(oversubscribed)}
        series = {"bfs weak SCALE 13/rank": one("weak", [1.0, 0.00096, 0.0021], [4]),
                  "bfs strong SCALE 14": one("strong", [1.0, 0.0028, 0.0022], [4]),
                  "sssp weak SCALE 12/rank": one("weak", [1.0, 0.93, 1.04]),
                  "sssp strong SCALE 12": one("strong", [1.0, 0.87, 1.01])}
        fig, counts = report_scaling.draw_scaling(series)
        try:
            renderer = fig.canvas.get_renderer()
            panel = fig.axes[1]
            frame = panel.get_window_extent(renderer)
            numbers = [t for t in panel.texts if isinstance(t, matplotlib.text.Annotation)]
            self.assertEqual(len(numbers), counts["efficiency_numbers_drawn"])
            self.assertEqual(len(numbers), 12)
            for note in numbers:
                box = note.get_window_extent(renderer)
                self.assertTrue(frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1,
                                f"{note.get_text()} at {note.xy}: {box} is not inside the panel {frame}")
        finally:
            matplotlib.pyplot.close(fig)


class ReportInputs(unittest.TestCase):
    def test_single_untraced_file_gives_only_the_pictures_it_allows(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = run_tool(os.path.join(FIXTURES, "sssp-s8-np1.json"), "--out", tmp,
                              "--dump-series", os.path.join(tmp, "s.json"))
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(tmp, "s.json")) as f:
                series = json.load(f)
            self.assertEqual(set(series["pictures"]), {"breakdown_sssp", "teps"})
            self.assertFalse(os.path.exists(os.path.join(tmp, "levels.png")))

    def test_measured_energy_appears_in_the_run_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(FIXTURES, "bfs-s10-np1.json")) as f:
                data = json.load(f)
            self.assertEqual(data["energy"], {"available": False})
            data["energy"] = {"available": True, "source": "rapl", "nodes": 1, "joules": 2.5, "seconds": 0.1,
                              "watts": 25.0, "teps_per_watt": 1.9e7}
            with open(os.path.join(tmp, "run.json"), "w") as f:
                json.dump(data, f)
            result = run_tool(os.path.join(tmp, "run.json"), "--out", os.path.join(tmp, "out"))
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(tmp, "out", "report.html")) as f:
                page = f.read()
            self.assertIn("<td>2.5 J, 25 W, 1.9e+07 TEPS/W</td>", page)

    def test_no_result_files_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "other.json"), "w") as f:
                f.write("{}")
            result = run_tool(tmp, "--out", os.path.join(tmp, "out"))
            self.assertEqual(result.returncode, 2)
            self.assertIn("g500report: error: no g500 result files", result.stderr)
            with open(os.path.join(tmp, "broken.json"), "w") as f:
                f.write("{")
            result = run_tool(tmp, "--out", os.path.join(tmp, "out"))
            self.assertEqual(result.returncode, 2)
            self.assertIn("cannot read", result.stderr)

    def test_an_output_that_cannot_be_written_exits_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            blocker = os.path.join(tmp, "file")
            with open(blocker, "w") as f:
                f.write("a file, not a directory")
            result = run_tool(os.path.join(FIXTURES, "bfs-s10-np1.json"), "--out", os.path.join(blocker, "out"))
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
            self.assertIn("g500report: error: cannot make the directory", result.stderr)


MARKUP = ["<script>alert(1)</script>", '"><img src=x onerror=alert(2)>', "'><svg onload=alert(3)>"]


class MarkupInFilesIsEscaped(unittest.TestCase):
    """Strings of a result file (directions, kernel, switched-off techniques), its file name and the
    title reach the page as text, never as markup."""

    def test_markup_is_escaped_in_the_page(self):
        with open(os.path.join(FIXTURES, "bfs-s10-np1.json")) as f:
            data = json.load(f)
        data["config"]["kernel"] = "bfs" + MARKUP[1]
        data["config"]["options"]["disabled"] = [MARKUP[2]]
        for root in data["roots"]:
            for level in root["levels"]:
                level["direction"] = MARKUP[0]
        with tempfile.TemporaryDirectory() as tmp:
            name = "run" + MARKUP[1].replace("/", "") + ".json"  # a file name may hold markup too
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(data, f)
            out = os.path.join(tmp, "out")
            result = run_tool(os.path.join(tmp, name), "--out", out, "--title", "t" + MARKUP[0])
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(out, "report.html")) as f:
                page = f.read()
        for payload in MARKUP + [name]:
            self.assertNotIn(payload, page)
        for payload in MARKUP:
            self.assertIn(html.escape(payload, quote=True), page)
        self.assertIn(html.escape(name, quote=True), page)
        self.assertNotIn("<script", page)
        self.assertNotIn("<img src=x", page)
        self.assertNotIn("<svg", page)
        # Every direction cell of the level table (one per level of the traced root) is the escaped text.
        levels = min(len(root["levels"]) for root in data["roots"])
        self.assertGreaterEqual(page.count("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"), levels)


# A g500 model --json file with one prediction and one published point (the fields the report reads).
MODEL_FILE = {
    "kind": "g500-model", "series": "weak", "network": {"name": "tofud"}, "profile": {"name": "a64fx"},
    "predictions": [{"nodes": 16, "teps": 1e11}, {"nodes": 64, "teps": 3e11}],
    "published": [{"system": "fugaku", "nodes": 16, "scale": 30, "label": "1ppn rendezvous 2.0GHz",
                   "published_gteps": 100.0, "predicted_gteps": 98.0, "error_percent": -2.0, "calibration": False,
                   "seconds": {"calculation": 0.1, "allgatherv": 0.02, "alltoallv": 0.03, "sendrecv": 0.01,
                               "imbalance": 0.005}}],
}


def edited(data, path, value):
    """A deep copy of `data` with the field at `path` (keys and indices) set to `value`, or removed
    when value is REMOVE."""
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is REMOVE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


REMOVE = object()


class WrongTypesAreOneLine(unittest.TestCase):
    """Each hand-edited file: exit status 2, one line naming the file and the field, no traceback,
    and nothing written in --out (not even for the good file given with it)."""

    def setUp(self):
        with open(os.path.join(FIXTURES, "bfs-s10-np1.json")) as f:
            self.run_data = json.load(f)

    def expect_refused(self, cases):
        """cases: (edited file data, expected message); the tool runs on them a few at a time."""
        with tempfile.TemporaryDirectory() as tmp:
            def run(index, data):
                path = os.path.join(tmp, f"run{index}.json")
                with open(path, "w") as f:
                    json.dump(data, f)
                out, series = os.path.join(tmp, f"out{index}"), os.path.join(tmp, f"series{index}.json")
                result = run_tool(os.path.join(FIXTURES, "bfs-s10-np2.json"), path, "--out", out,
                                  "--dump-series", series)
                return path, out, series, result

            with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
                runs = list(pool.map(run, range(len(cases)), [data for data, _ in cases]))
            for (path, out, series, result), (_, message) in zip(runs, cases):
                with self.subTest(field=message):
                    self.assertEqual(result.returncode, 2, result.stderr)
                    self.assertEqual(result.stderr, f"g500report: error: {path}: {message}\n")
                    self.assertNotIn("Traceback", result.stderr)
                    self.assertEqual(result.stdout, "")
                    self.assertFalse(os.path.exists(out), "the output directory was made")
                    self.assertFalse(os.path.exists(series))

    def test_result_files(self):
        big = 10 ** 400
        cases = [
            (["roots", 0, "levels", 3, "time_s"], "fast", "roots[0].levels[3].time_s is a string, expected a number"),
            (["config", "grid"], [1, 1], "config.grid is a list, expected an object"),
            (["roots"], {"root": 1}, "roots is an object, expected a list"),
            (["roots", 1, "root"], REMOVE, "roots[1].root is missing"),
            (["roots", 0, "teps"], float("nan"), "roots[0].teps is NaN, expected a number"),
            (["summary", "construction_time"], float("inf"),
             "summary.construction_time is infinite, expected a number from 0 to 1e+30"),
            (["roots", 2, "teps"], 1e300, "roots[2].teps is 1e+300, expected a number from 0 to 1e+30"),
            (["roots", 0, "levels", 0, "frontier"], -5,
             "roots[0].levels[0].frontier is -5, expected a whole number from 0 to 9007199254740992"),
            (["roots", 0, "levels", 1, "edges_examined"], big,
             "roots[0].levels[1].edges_examined is a number of 401 digits, expected a whole number from 0 to "
             "9007199254740992"),
            (["roots", 0, "levels", 1, "edges_examined"], 2.5,
             "roots[0].levels[1].edges_examined is a fractional or non-finite number, expected a whole number"),
            (["config", "ranks"], 0, "config.ranks is 0, expected a whole number from 1 to 9007199254740992"),
            (["config", "options", "disabled"], "bcsr", "config.options.disabled is a string, expected a list"),
            (["summary", "validation_passed"], "yes", "summary.validation_passed is a string, expected true or false"),
            (["profile", "sendrecv"], 0.5, "profile.sendrecv is a number, expected an object"),
            (["energy"], {"available": True, "joules": 2.0, "watts": 20.0}, "energy.teps_per_watt is missing"),
        ]
        self.expect_refused([(edited(self.run_data, path, value), message) for path, value, message in cases])

    def test_model_files(self):
        cases = [
            (["published", 0, "seconds", "sendrecv"], REMOVE, "published[0].seconds.sendrecv is missing"),
            (["predictions", 0, "nodes"], "16", "predictions[0].nodes is a string, expected a whole number"),
            (["published", 0, "calibration"], 0, "published[0].calibration is a number, expected true or false"),
        ]
        self.expect_refused([(edited(MODEL_FILE, path, value), message) for path, value, message in cases])

    def test_the_good_model_file_is_drawn(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "model.json")
            with open(path, "w") as f:
                json.dump(MODEL_FILE, f)
            series_path = os.path.join(tmp, "series.json")
            result = run_tool(path, "--out", os.path.join(tmp, "out"), "--dump-series", series_path)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(series_path) as f:
                model = json.load(f)["model"]
        self.assertEqual(model["lines_drawn"], 1)
        self.assertEqual(model["lines"][0]["gteps"], [100.0, 300.0])
        self.assertEqual(model["points_drawn"], 2)
        self.assertEqual(model["bars_drawn"], 6)  # five phase shares and one sendrecv bar

    def test_an_earlier_report_is_left_as_it_was(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            os.mkdir(out)
            with open(os.path.join(out, "report.html"), "w") as f:
                f.write("earlier")
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                json.dump(edited(self.run_data, ["roots", 0, "time_s"], [1]), f)
            result = run_tool(FIXTURES, bad, "--out", out)
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertEqual(result.stderr, f"g500report: error: {bad}: roots[0].time_s is a list, expected a number\n")
            self.assertEqual(os.listdir(out), ["report.html"])
            with open(os.path.join(out, "report.html")) as f:
                self.assertEqual(f.read(), "earlier")


class SwitchingLabels(unittest.TestCase):
    """A run with either default alpha of g500 bfs (14 before 2026-11-27, 28 since) is a default run;
    any other alpha is labelled with it."""

    def test_runs_labelled_only_off_the_defaults(self):
        with open(os.path.join(FIXTURES, "bfs-s10-np1.json")) as f:
            data = json.load(f)
        with tempfile.TemporaryDirectory() as tmp:
            inputs = os.path.join(tmp, "runs")
            os.mkdir(inputs)
            for name, alpha in (("old-default", 14.0), ("new-default", 28.0), ("other", 20.0)):
                data["config"]["options"]["alpha"] = alpha
                with open(os.path.join(inputs, name + ".json"), "w") as f:
                    json.dump(data, f)
            series_path = os.path.join(tmp, "series.json")
            result = run_tool(inputs, "--out", os.path.join(tmp, "report"), "--dump-series", series_path)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(series_path) as f:
                runs = json.load(f)["teps"]["runs"]
        self.assertEqual(sorted(runs), ["bfs S10 1r 1x1 1t", "bfs S10 1r 1x1 1t", "bfs S10 1r 1x1 1t alpha=20"])


def run_file(fixture, **changes):
    """A fixture's JSON with `changes` applied: config fields, "provenance", "node" (config.node)."""
    with open(os.path.join(FIXTURES, fixture)) as f:
        data = json.load(f)
    for key, value in changes.items():
        if key == "provenance":
            data["provenance"] = value
        elif key == "node":
            data["config"]["node"] = value
        else:
            data["config"][key] = value
    return data


def provenance(host, ranks, threads, date, command):
    return {"version": "1.2.0", "build": "abc1234", "compiler": "GNU 12.2.0", "mpi_library": "Open MPI 4.1.4",
            "hosts": [host], "ranks": ranks, "threads_per_rank": threads, "date": date, "command": command}


class RunsTable(html.parser.HTMLParser):
    """The runs table of a page: whether it sits in a box of its own, and per row its cells as
    (class, text, [texts of the spans that may not wrap])."""

    def __init__(self, page):
        super().__init__()
        self.boxed, self.inside, self.rows, self.open = False, False, [], []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("class") == "runs":
            self.boxed = bool(self.open) and self.open[-1] == ("div", "wide")
            self.inside = True
        if tag == "tr" and self.inside:
            self.rows.append([])
        if tag == "td" and self.inside:
            self.rows[-1].append([attrs.get("class"), "", []])
        if tag == "span" and attrs.get("class") == "nowrap" and self.inside:
            self.rows[-1][-1][2].append("")
        self.open.append((tag, attrs.get("class")))

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if self.inside and self.rows and self.rows[-1]:
            cell = self.rows[-1][-1]
            cell[1] += data
            if self.open and self.open[-1] == ("span", "nowrap"):
                cell[2][-1] += data


class RunsThatFormASeriesOrNot(unittest.TestCase):
    """Four runs from three folders: two of one strong series (the same SCALE, roots and build on 1 and
    2 ranks, the second oversubscribed), one of SCALE 10 on 4 ranks with other roots and one of
    another build: only the series is drawn and said to be one; the others are named as in no series;
    every run is labelled by its host, ranks x threads and date, not by its file name."""

    def write_runs(self, tmp):
        runs = {
            "a/run.json": run_file("bfs-s10-np1.json", node={"ranks": 1, "cores": 2},
                                   provenance=provenance("alpha", 1, 1, "2026-11-20T10:00:00Z",
                                                         "mpiexec -n 1 g500 bfs --scale 10 --roots 4")),
            "b/run.json": run_file("bfs-s10-np2.json", node={"ranks": 2, "cores": 1},
                                   provenance=provenance("alpha", 2, 1, "2026-11-20T11:00:00Z",
                                                         "mpiexec -n 2 g500 bfs --scale 10 --roots 4")),
            "c/run.json": run_file("bfs-s11-np2.json", node={"ranks": 2, "cores": 8},
                                   provenance=provenance("beta", 2, 1, "2026-11-21T09:30:00Z",
                                                         "mpiexec -n 2 g500 bfs --scale 11 --roots 4")),
        }
        other_build = run_file("bfs-s10-np4.json", node={"ranks": 4, "cores": 8},
                               provenance=provenance("gamma", 4, 1, "2026-11-22T08:00:00Z",
                                                     "mpiexec -n 4 g500 bfs --scale 10 --roots 4"))
        other_build["provenance"]["build"] = "def5678"
        runs["c/other.json"] = other_build
        for name, data in runs.items():
            os.makedirs(os.path.join(tmp, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(data, f)
        return [os.path.join(tmp, folder) for folder in ("a", "b", "c")]

    def test_grouping_labels_and_flags(self):
        with tempfile.TemporaryDirectory() as tmp:
            inputs = self.write_runs(tmp)
            out = os.path.join(tmp, "out")
            result = run_tool(*inputs, "--out", out, "--dump-series", os.path.join(tmp, "series.json"))
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(tmp, "series.json")) as f:
                series = json.load(f)
            scaling = series["scaling"]["series"]
            self.assertEqual(list(scaling), ["bfs strong SCALE 10"])
            self.assertEqual(scaling["bfs strong SCALE 10"]["ranks"], [1, 2])
            self.assertEqual(scaling["bfs strong SCALE 10"]["oversubscribed_ranks"], [2])
            text = series["series_text"]
            self.assertEqual(len(text), 2)
            self.assertTrue(text[0].startswith("bfs strong SCALE 10: strong scaling: the same SCALE on more ranks; "
                                               "ranks 1, 2; oversubscribed"), text[0])
            self.assertIn("in no series", text[1])
            self.assertIn("beta, 2 ranks x 1 thread, 2026-11-21T09:30:00Z", text[1])
            self.assertIn("gamma, 4 ranks x 1 thread, 2026-11-22T08:00:00Z", text[1])
            self.assertIn(text[1], result.stdout)
            self.assertIn("bfs S10 2r 2x1 1t (alpha, 2 ranks x 1 thread, 2026-11-20T11:00:00Z): validation: 4 of 4 roots passed; "
                          "oversubscribed", result.stdout)
            with open(os.path.join(out, "report.html")) as f:
                page = f.read()
            self.assertNotIn("run.json", page)  # labelled by provenance, not by file name
            self.assertIn("<td>mpiexec -n 2 g500 bfs --scale 11 --roots 4</td>", page)
            self.assertIn("<td>alpha, 1 rank x 1 thread, 2026-11-20T10:00:00Z</td>", page)
            self.assertIn("<h2>Series</h2>", page)
            self.assertNotRegex(page, r"\b00[0-9] Fig|slide 00")

    def test_runs_table_keeps_labels_dates_and_units_whole_and_scrolls_when_wide(self):
        """A narrow column wrapped '2026-11-' / '29T04:40:06Z' and a label onto three lines."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            result = run_tool(*self.write_runs(tmp), "--out", out)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(out, "report.html")) as f:
                page = f.read()
        self.assertIn(".nowrap{white-space:nowrap}", page)
        self.assertIn(".wide{overflow-x:auto}", page)
        table = RunsTable(page)
        self.assertTrue(table.boxed, "the runs table is not in a box that scrolls sideways")
        rows = table.rows[1:]  # under the head
        self.assertEqual(len(rows), 4)
        dates = set()
        for label, origin, *rest in rows:
            self.assertEqual(label[0], "nowrap", label)
            self.assertRegex(label[1], r"^S1[01] [124]r ")  # the parts all share dropped
            host, ranks, date = origin[2]  # every part of "host, ranks x threads, date" whole
            self.assertEqual(origin[1], f"{host}, {ranks}, {date}")
            self.assertRegex(date, r"^2026-11-2[0-2]T\d\d:\d\d:00Z$")
            dates.add(date)
            teps, quartiles = rest[2][1], rest[3][1]
            self.assertRegex(teps, r"^[\d.]+\xa0[kMG]$")  # the unit on the number's line
            self.assertRegex(quartiles, r"^([\d.]+\xa0/ ){4}[\d.]+\xa0[kMG]$")  # a line breaks after a '/' only
        self.assertEqual(len(dates), 4)

    def test_an_implausibly_low_efficiency_is_flagged_and_still_drawn(self):
        """A 2-rank run at 2 % of the 1-rank run's TEPS per rank on a machine with cores to spare (not
        oversubscribed) was shown with no warning; the 4-rank run at 50 % is plausible."""
        flag = "efficiency below 5 %: a loaded or misconfigured machine?"
        with tempfile.TemporaryDirectory() as tmp:
            for ranks, efficiency in ((1, 1.0), (2, 0.02), (4, 0.5)):
                data = run_file(f"bfs-s10-np{ranks}.json", node={"ranks": ranks, "cores": 8},
                                provenance=provenance("alpha", ranks, 1, f"2026-11-20T1{ranks}:00:00Z",
                                                      f"mpiexec -n {ranks} g500 bfs --scale 10 --roots 4"))
                data["summary"]["harmonic_mean_TEPS"] = 1e8 * ranks * efficiency
                with open(os.path.join(tmp, f"np{ranks}.json"), "w") as f:
                    json.dump(data, f)
            out, dump = os.path.join(tmp, "out"), os.path.join(tmp, "series.json")
            result = run_tool(tmp, "--out", out, "--dump-series", dump)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(out, "report.html")) as f:
                page = f.read()
            with open(dump) as f:
                scaling = json.load(f)["scaling"]
        self.assertEqual(scaling["points_drawn"], {"bfs strong SCALE 10": 3})  # no point dropped
        rows = RunsTable(page).rows[1:]
        self.assertEqual([row[9][1] for row in rows], ["no"] * 3)  # not oversubscribed
        efficiency = {row[0][1]: row[10][1] for row in rows}  # run -> its parallel efficiency cell
        unbroken = flag.replace(" %", "\xa0%")  # "5 %" on one line
        self.assertEqual(efficiency, {"1r 1x1": "strong 1.00", "2r 2x1": f"strong 0.02; {unbroken}",
                                      "4r 2x2": "strong 0.50"})
        flag_html = html.escape(flag).replace(" %", "&nbsp;%")
        self.assertIn(f"<td class='note'>strong 0.02; <strong>{flag_html}</strong></td>", page)
        self.assertIn("a black cross marks an oversubscribed point; parallel efficiency below 5 % at "
                      "bfs S10 2r 2x1 1t (strong 0.02): a loaded or misconfigured machine? Their points are drawn "
                      "all the same</figcaption>", page)
        self.assertIn(f"bfs S10 2r 2x1 1t (alpha, 2 ranks x 1 thread, 2026-11-20T12:00:00Z): validation: 4 of 4 "
                      f"roots passed; {flag}\n", result.stdout)
        self.assertEqual(result.stdout.count(flag), 1)

    def test_files_without_provenance_are_labelled_by_folder_and_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            for folder in ("x", "y"):
                os.makedirs(os.path.join(tmp, folder))
                with open(os.path.join(tmp, folder, "run.json"), "w") as f:
                    json.dump(run_file("bfs-s10-np1.json"), f)
            result = run_tool(os.path.join(tmp, "x"), os.path.join(tmp, "y"), "--out", os.path.join(tmp, "out"))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("(x/run.json)", result.stdout)
            self.assertIn("(y/run.json)", result.stdout)

    def test_single_run_report_has_where_when_how_memory_steps_and_quartiles(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = run_file("bfs-s10-np2.json", node={"ranks": 2, "cores": 2},
                            provenance=provenance("alpha", 2, 1, "2026-11-20T11:00:00Z",
                                                  "mpiexec -n 2 g500 bfs --scale 10 --roots 4 --json r.json"))
            data["memory"]["kernel1_seconds_max_rank"] = {"generate": 0.0125, "route": 0.004, "bucket": 0.001,
                                                          "plan": 0.002, "mirror": 0.003, "fill": 0.006}
            path = os.path.join(tmp, "r.json")
            with open(path, "w") as f:
                json.dump(data, f)
            out = os.path.join(tmp, "out")
            result = run_tool(path, "--out", out)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(out, "report.html")) as f:
                page = f.read()
            summary, memory = data["summary"], data["memory"]
            for row in ("<th>where and when</th><td>alpha, 2 ranks x 1 thread, 2026-11-20T11:00:00Z</td>",
                        "<th>command</th><td>mpiexec -n 2 g500 bfs --scale 10 --roots 4 --json r.json</td>",
                        "<th>version and build</th><td>1.2.0 abc1234</td>",
                        "<th>compiler, MPI</th><td>GNU 12.2.0, Open MPI 4.1.4</td>",
                        "<th>validation</th><td>4 of 4 roots passed</td>",
                        f"<th>peak memory per rank</th><td>{memory['peak_rss_bytes_max_rank'] / 2 ** 20:.1f} MiB</td>",
                        # 2 decimals, as g500 prints them (0.0125 s and 0.006 s read 0.01)
                        "<th>kernel 1 per step (slowest rank)</th><td>generate 0.01 s, route 0.00 s, bucket 0.00 s, plan 0.00 s, "
                        "mirror 0.00 s, fill 0.01 s</td>"):
                self.assertIn(row, page)
            quartiles = " / ".join(f"{summary[q + '_TEPS'] / 1e6:.3g}"
                                   for q in ("min", "firstquartile", "median", "thirdquartile", "max"))
            self.assertIn(f"<th>TEPS min / Q1 / median / Q3 / max</th><td>{quartiles} M</td>", page)


if __name__ == "__main__":
    unittest.main(verbosity=2)
