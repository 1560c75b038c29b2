#!/usr/bin/python3
"""Progress lines by default on a terminal: each command runs with its stderr on a pseudo-terminal
(stdout a pipe) and must rewrite one line in place ("\\r\\033[Kg500: <phase> ... done"); with
--quiet, or with stderr a pipe, there is none, and --progress shows it in a pipe too. Kernel 1 counts
its passes over the input edges once it has planned them.
usage: test_progress_pty.py BUILD/g500 MPIEXEC [MPIEXEC FLAGS...]"""
import os
import subprocess
import sys
import unittest

BINARY = os.path.abspath(sys.argv[1])
MPIEXEC = sys.argv[2:] if len(sys.argv) > 2 else ["mpiexec"]
del sys.argv[1:]
LINE_START = "\r\033[Kg500: "
SMALL_SSSP = ["sssp", "--scale", "10", "--roots", "4"]
# A 12-node 2m,3t,2m shape: three BFS patterns on two layouts (plain and the 6D mapping; the
# scheduler's shape needs Tofu's axes) in a fraction of a second.
SMALL_MAP = ["map", "--shape", "2m,3t,2m", "--nodes", "12", "--grid", "3x4", "--simulate", "bfs"]


def run_on_terminal(command):
    """stdout and the exit status of `command` and what it wrote to stderr, a pseudo-terminal."""
    controller, terminal = os.openpty()
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=terminal, stdin=subprocess.DEVNULL)
    finally:
        os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: every writer of the terminal has closed it
            break
        if not chunk:
            break
        seen += chunk
    os.close(controller)
    out = process.stdout.read().decode()
    process.stdout.close()
    process.wait(timeout=120)
    return process.returncode, out, seen.decode(errors="replace")


def run_in_pipes(command):
    # Bytes, not text mode: text mode would turn the "\r" of a rewritten line into "\n".
    result = subprocess.run(command, capture_output=True, timeout=120)
    return result.returncode, result.stdout.decode(), result.stderr.decode(errors="replace")


def mpiexec(ranks, args):
    return MPIEXEC + ["-n", str(ranks), BINARY] + args


class ProgressOnATerminal(unittest.TestCase):
    def assert_progress(self, stderr, phase, total):
        """One line rewritten in place that counts `total` steps of `phase` and ends with done."""
        self.assertIn(f"{LINE_START}{phase} 0/{total} (0%)", stderr)
        self.assertIn(f"{LINE_START}{phase} {total}/{total} (100%)", stderr)
        self.assertRegex(stderr, f"{phase} {total}/{total} \\(100%\\) [0-9.]+s done\r?\n")

    def test_sssp_under_mpiexec_shows_its_roots(self):
        for ranks in (1, 2):
            status, out, err = run_on_terminal(mpiexec(ranks, SMALL_SSSP))
            self.assertEqual(status, 0, err)
            self.assert_progress(err, "SSSP roots", 4)
            self.assertIn(f"{LINE_START}kernel 1: building the graph", err)
            self.assertRegex(err, "kernel 1: building the graph ([12])/\\1 \\(100%\\) [0-9.]+s done")  # its passes
            self.assertIn("validation: 4 of 4 roots passed", out)
            self.assertNotIn("g500: ", out)  # the result on stdout stays clean

    def test_bfs_started_without_mpiexec(self):
        status, out, err = run_on_terminal([BINARY, "bfs", "--scale", "10", "--roots", "4"])
        self.assertEqual(status, 0, err)
        self.assert_progress(err, "BFS roots", 4)

    def test_kernel1_counts_its_passes(self):
        status, out, err = run_on_terminal(mpiexec(2, ["bfs", "--scale", "10", "--roots", "2", "--kernel1-passes", "3"]))
        self.assertEqual(status, 0, err)
        self.assertIn(f"{LINE_START}kernel 1: building the graph ... ", err)  # before the passes are planned
        self.assertRegex(err, "kernel 1: building the graph 3/3 \\(100%\\) [0-9.]+s done\r?\n")
        self.assertIn("kernel 1 read the input edges 3 times", out)

    def test_quiet_and_pipes_have_none(self):
        status, _, err = run_on_terminal(mpiexec(2, SMALL_SSSP + ["--quiet"]))
        self.assertEqual(status, 0, err)
        self.assertNotIn("g500: ", err)
        status, _, err = run_in_pipes(mpiexec(2, SMALL_SSSP))
        self.assertEqual(status, 0, err)
        self.assertNotIn("g500: ", err)

    def test_progress_asked_for_in_a_pipe(self):
        status, _, err = run_in_pipes(mpiexec(2, SMALL_SSSP + ["--progress"]))
        self.assertEqual(status, 0, err)
        self.assert_progress(err, "SSSP roots", 4)

    def test_quiet_and_progress_exclude_each_other(self):
        status, _, err = run_in_pipes([BINARY] + SMALL_SSSP + ["--quiet", "--progress"])
        self.assertEqual(status, 2)
        self.assertIn("--quiet excludes --progress", err)

    def test_the_simulations_show_progress(self):
        status, out, err = run_on_terminal([BINARY] + SMALL_MAP)
        self.assertEqual(status, 0, err)
        self.assert_progress(err, "link-load simulation", 6)
        self.assertIn("link-load simulation: 12 nodes", out)
        status, _, err = run_on_terminal([BINARY] + SMALL_MAP + ["--quiet"])
        self.assertEqual(status, 0, err)
        self.assertNotIn("g500: ", err)
        status, out, err = run_on_terminal([BINARY, "coll", "--simulate", "--sizes", "1K:1K"])
        self.assertEqual(status, 0, err)
        self.assert_progress(err, "torus simulation", 90)
        self.assertIn("bcast", out)


if __name__ == "__main__":
    unittest.main()
