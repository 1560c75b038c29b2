#!/usr/bin/python3
"""tools/coll_plot.py and tools/plot_link_loads.py on small hand-written CSVs: a good file gives
its PNG; a cell of the wrong type, NaN, a name that would leave the output directory or a network
beyond 2^24 nodes is one line naming the file, the line and the column, exit status 2, no
traceback and no picture."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "..", "tools")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
HARNESS_HEADER = "op,algo,ran,shape,segment,np,nlp,bytes,reps,t_median_s,t_min_s,t_max_s,throughput_Bps\n"
HARNESS_ROW = "alltoallv,mpi,mpi:library-choice,-,0,4,1,{bytes},10,2.5e-05,2.3e-05,8.4e-05,{throughput}\n"
LINK_HEADER = "layout,pattern,node,axis,direction,a,b,bytes\n"


def run(tool, *args, cwd):
    return subprocess.run([sys.executable, os.path.join(TOOLS, tool), *args], capture_output=True, text=True, cwd=cwd)


class PlotTools(unittest.TestCase):
    def refused(self, tool, name, text, args, message):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
            result = run(tool, name, *args, cwd=tmp)
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertEqual(result.stderr, message + "\n")
            self.assertEqual(os.listdir(tmp), [name], "nothing but the input may be there")

    def test_coll_plot(self):
        good = HARNESS_HEADER + "".join(HARNESS_ROW.format(bytes=b, throughput=b * 1e4) for b in (1, 2, 4))
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "a.csv"), "w") as f:
                f.write(good)
            result = run("coll_plot.py", "a.csv", "--out", "out", cwd=tmp)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stdout, "out/coll_alltoallv_np4.png\n")
            with open(os.path.join(tmp, "out", "coll_alltoallv_np4.png"), "rb") as f:
                self.assertEqual(f.read(8), PNG_SIGNATURE)
        cases = [
            (good.replace("alltoallv,mpi", "../evil,mpi", 1),
             "a.csv:2: op '../evil' is not a name (expected up to 64 letters, digits and . _ : + -, not starting with .)"),
            (good + HARNESS_ROW.format(bytes="abc", throughput=1), "a.csv:5: bytes 'abc' is a string, expected a whole number"),
            (good + HARNESS_ROW.format(bytes=8, throughput="nan"), "a.csv:5: throughput_Bps 'nan' is NaN, expected a number"),
            (good + HARNESS_ROW.format(bytes=-8, throughput=1),
             "a.csv:5: bytes '-8' is -8, expected a whole number from 0 to 9007199254740992"),
            ("op,algo\nbcast,mpi\n", "a.csv: no column ran, shape, segment, np, bytes, throughput_Bps in the header "
                                     "(expected op,algo,ran,shape,segment,np,bytes,throughput_Bps)"),
        ]
        for text, message in cases:
            with self.subTest(message=message):
                self.refused("coll_plot.py", "a.csv", text, ["--out", "out"], "coll_plot: error: " + message)

    def test_plot_link_loads(self):
        good = LINK_HEADER + "plain,bfs,0,a,+,0,0,100\nplain,bfs,1,a,+,1,0,50\n"
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "l.csv"), "w") as f:
                f.write(good)
            result = run("plot_link_loads.py", "l.csv", "-o", "l.png", cwd=tmp)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(tmp, "l.png"), "rb") as f:
                self.assertEqual(f.read(8), PNG_SIGNATURE)
        cases = [
            (good + "plain,bfs,2,a,+,x,1,5\n", "l.csv:4: a 'x' is a string, expected a whole number"),
            (good + "plain,bfs,2,a,+,0,1,nan\n", "l.csv:4: bytes 'nan' is NaN, expected a number"),
            (good + "plain,bfs,2,a,+,0,1,-5\n", "l.csv:4: bytes '-5' is -5, expected a number from 0 to 1e+30"),
            (good + "plain,bfs,2,a,+,5000,5000,5\n", "l.csv:4: the coordinates make a network of more than 16777216 nodes"),
        ]
        for text, message in cases:
            with self.subTest(message=message):
                self.refused("plot_link_loads.py", "l.csv", text, ["-o", "l.png"], "plot_link_loads: error: " + message)

    def test_python_from_path(self):
        """Every Python tool starts with `#!/usr/bin/env python3`: the python3 first on PATH runs it
        (a module's, a virtual environment's, a conda one), not only the system's."""
        for name in sorted(os.listdir(TOOLS)):
            if not os.path.isfile(os.path.join(TOOLS, name)):
                continue  # __pycache__, left by a tool that imported its modules
            with open(os.path.join(TOOLS, name), "rb") as f:
                first = f.readline()
            if first.startswith(b"#!") and b"python" in first:
                with self.subTest(tool=name):
                    self.assertEqual(first, b"#!/usr/bin/env python3\n")
                    self.assertTrue(os.access(os.path.join(TOOLS, name), os.X_OK), f"{name} is not executable")

    def test_without_matplotlib(self):
        """A Python without matplotlib: one line naming that Python and what to install, exit status 2."""
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "matplotlib"))  # found before the real one, and failing as a missing one
            with open(os.path.join(tmp, "matplotlib", "__init__.py"), "w") as f:
                f.write("raise ModuleNotFoundError(\"No module named 'matplotlib'\", name='matplotlib')\n")
            env = dict(os.environ, PYTHONPATH=tmp)
            requirements = os.path.join(os.path.realpath(TOOLS), "requirements.txt")
            for tool, name in (("g500report", "g500report"), ("coll_plot.py", "coll_plot"),
                               ("plot_link_loads.py", "plot_link_loads")):
                with self.subTest(tool=tool):
                    result = subprocess.run([sys.executable, os.path.join(TOOLS, tool), "--help"], capture_output=True,
                                            text=True, env=env, cwd=tmp)
                    self.assertEqual(result.returncode, 2, result.stderr)
                    self.assertEqual(result.stdout, "")
                    self.assertEqual(result.stderr,
                                     f"{name}: error: matplotlib is not installed for {sys.executable} (pip install "
                                     f"--user -r {requirements}, or Debian's python3-matplotlib)\n")
            self.assertTrue(os.path.isfile(requirements))


if __name__ == "__main__":
    unittest.main(verbosity=2)
