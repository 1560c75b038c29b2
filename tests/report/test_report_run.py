#!/usr/bin/python3
"""The run's own tables in tools/g500report (tools/report_run.py) on a real result file in today's
format (tests/report/current, made by make_fixtures.sh): the Graph500 statistics, the bytes per
phase, the bytes beside Table 3 of Nakao et al. 2021 with the formulas at this run's size, the memory
table, and, through the tool, the page of two runs of one configuration: peak memory per rank in the
runs table, each run in full, and bars that name the runs apart. The tables are built in-process
(fast); the tool runs once."""
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "..", "tools")
sys.path.insert(0, TOOLS)
import report_run  # noqa: E402

RUN = os.path.join(HERE, "current", "bfs-s10-np2.json")
MIB = 2 ** 20


def cells(*values):
    return "<tr>" + "".join(f"<td>{html.escape(str(v), quote=True)}</td>" for v in values) + "</tr>"


def in_units(value):
    """Bytes as g500 prints them (powers of 1000), written out independently of the tool."""
    if value >= 1e6:
        return f"{value / 1e6:.3g} MB"
    if value >= 1e3:
        return f"{value / 1e3:.3g} kB"
    return f"{value:.0f} B"


class RunTables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(RUN) as f:
            cls.data = json.load(f)

    def test_the_file_is_a_real_two_rank_run_in_todays_format(self):
        self.assertEqual(self.data["config"]["ranks"], 2)
        for field in ("provenance", "volumes", "memory", "summary"):
            self.assertIn(field, self.data)
        self.assertTrue(self.data["summary"]["validation_passed"])

    def test_graph500_statistics_are_all_there(self):
        page = report_run.statistics_table(self.data)
        s = self.data["summary"]
        self.assertIn(cells("median", f"{s['median_time']:.6g}", f"{s['median_nedge']:.6g}",
                            f"{s['median_TEPS']:.6g}", f"{s['median_validate']:.6g}"), page)
        self.assertIn(cells("harmonic mean", "", "", f"{s['harmonic_mean_TEPS']:.6g}", ""), page)
        self.assertIn(cells("harmonic stddev", "", "", f"{s['harmonic_stddev_TEPS']:.6g}", ""), page)
        self.assertEqual(page.count("<tr>"), 1 + 7 + 2)  # head, min..stddev, harmonic mean and stddev
        self.assertIn(f"N {s['nvertices_computed']} (largest vertex id + 1)", page)
        self.assertIn(f"graph generation {s['graph_generation']:.6g} s", page)

    def test_bytes_per_phase_split_by_direction(self):
        page = report_run.phase_table(self.data)
        sent = self.data["volumes"]["bytes_sent"]
        seconds = self.data["profile"]["allgatherv"]["seconds"]
        total = sum(self.data["profile"][p]["seconds"] for p in report_run.PHASES)
        td, bu = sent["top-down"]["allgatherv"], sent["bottom-up"]["allgatherv"]
        self.assertIn(cells("allgatherv", f"{seconds:.4f}", f"{100 * seconds / total:.1f}", in_units(td + bu),
                            in_units(td), in_units(bu)), page)
        self.assertIn("bytes sent per search", page)

    def test_table3_beside_the_measured_bytes_at_this_runs_size(self):
        page = report_run.table3_table(self.data)
        v = self.data["volumes"]
        measured = v["bytes_sent"]["bottom-up"]["allgatherv"]
        predicted = v["table3_bytes"]["bottom-up"]["allgatherv"]
        printed = v["table3_as_printed_bytes"]["bottom-up"]["allgatherv"]
        self.assertGreater(predicted, 0)
        self.assertIn(cells("bottom-up", "allgatherv", in_units(measured), in_units(predicted),
                            f"{measured / predicted:.2f}", f"{in_units(printed)} = s_b nR/64"), page)
        # Table 3 predicts no bottom-up sendrecv on a 2x1 grid: no ratio.
        self.assertIn(cells("bottom-up", "sendrecv", in_units(v["bytes_sent"]["bottom-up"]["sendrecv"]), "0 B", "-",
                            f"{in_units(v['table3_as_printed_bytes']['bottom-up']['sendrecv'])} = s_b nC/64"), page)
        self.assertEqual(page.count("<tr>"), 1 + 5)
        model = v["model"]
        self.assertIn(f"n = {model['n']}, m = {model['m']}, {model['R']}x{model['C']} grid, "
                      f"s_b = {v['mean_bottom_up_levels']:.2f}", page)
        self.assertIn("Nakao et al. 2021, section 4.5", page)
        self.assertIn("not at the paper&#x27;s SCALE", page)
        self.assertNotRegex(page, r"\b00[0-9]\b")  # papers by author and year, not by file number

    def test_one_rank_has_no_table3(self):
        one_rank = json.loads(json.dumps(self.data))
        one_rank["config"]["ranks"] = 1
        self.assertEqual(report_run.table3_table(one_rank), "")

    def test_memory_against_the_estimates(self):
        page = report_run.memory_table(self.data)
        m = self.data["memory"]
        self.assertIn(cells("peak memory per rank in kernel 1 (largest rank)",
                            f"{m['kernel1_peak_rss_bytes_max_rank'] / MIB:.1f} MiB (g500's estimate "
                            f"{m['estimated_kernel1_bytes_max_rank'] / MIB:.1f} MiB)"), page)
        per_edge = m["graph_bytes_max_rank"] * 2 / self.data["volumes"]["model"]["m"]
        self.assertIn(cells("graph: all arrays (largest rank)", f"{m['graph_bytes_max_rank'] / MIB:.1f} MiB, "
                            f"{per_edge:.2f} bytes per input edge (largest rank x ranks)"), page)
        self.assertIn(cells("kernel 1 passes over the input edges", f"{m['kernel1_passes']} (one slab of rows per pass)"),
                      page)

    def test_older_files_without_the_fields_give_no_empty_tables(self):
        old = {"config": {"kernel": "bfs", "ranks": 2}, "roots": [{"root": 1}]}
        self.assertEqual(report_run.run_figures(old), "")


class TwoRunsOfOneConfiguration(unittest.TestCase):
    def test_page_names_them_apart_and_shows_each_in_full(self):
        with open(RUN) as f:
            data = json.load(f)
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("first", "second"):
                with open(os.path.join(tmp, f"{name}.json"), "w") as f:
                    json.dump(data, f)
            out = os.path.join(tmp, "out")
            series_path = os.path.join(tmp, "series.json")
            result = subprocess.run([sys.executable, os.path.join(TOOLS, "g500report"), tmp, "--out", out,
                                     "--dump-series", series_path], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(series_path) as f:
                series = json.load(f)
            with open(os.path.join(out, "report.html")) as f:
                page = f.read()
        self.assertEqual(series["breakdown"]["runs"], ["bfs S10 2r 2x1 1t (first)", "bfs S10 2r 2x1 1t (second)"])
        peak = f"<td>{data['memory']['peak_rss_bytes_max_rank'] / MIB:.1f}&nbsp;MiB</td>"
        self.assertEqual(page.count(peak), 2)  # the runs table's column (the unit kept on the number's line)
        self.assertEqual(len(re.findall(r"<details><summary>bfs S10 2r 2x1 1t \((first|second)\)", page)), 2)
        self.assertEqual(page.count("Table 3 of Nakao et al. 2021"), 2)


    def test_a_wrong_type_in_the_new_fields_is_one_line(self):
        with open(RUN) as f:
            data = json.load(f)
        data["volumes"]["table3_bytes"]["top-down"]["alltoallv"] = "many"
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.json")
            with open(path, "w") as f:
                json.dump(data, f)
            out = os.path.join(tmp, "out")
            result = subprocess.run([sys.executable, os.path.join(TOOLS, "g500report"), path, "--out", out],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 2)
            self.assertEqual(result.stderr, f"g500report: error: {path}: volumes.table3_bytes.top-down.alltoallv "
                                            "is a string, expected a number\n")
            self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main(verbosity=2)
