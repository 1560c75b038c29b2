#!/usr/bin/python3
"""The README's quick start as a user pastes it: every line of its ```sh blocks, in order, in one
bash in an empty directory (with build/, tools/ and scripts/ linked in), with none of the
variables scripts/env.sh sets inherited, so its first line must be what lets mpiexec run (as
root, more ranks than cores). Each line must succeed; a file it reads must have been made by an
earlier line. SCALEs above 10 run at 10 (the CI's time), except in g500 jobscript, which only
plans. usage: test_readme_commands.py BUILD/g500"""
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
BINARY = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(TOP, "build", "g500"))
LARGEST_TESTED_SCALE = 10
SCALE_OPTION = re.compile(r"(--(?:weak-|strong-)?scale) (\d+)")
# What scripts/env.sh (or a CI runner) sets: the test starts without them.
ENV_SET_BY_THE_README = ("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM",
                         "OMPI_MCA_rmaps_base_oversubscribe", "OMPI_MCA_mpi_yield_when_idle")


def readme_commands(path):
    """The lines of the ```sh blocks, without blank ones."""
    commands, inside = [], False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("```"):
                inside = line == "```sh" if not inside else False
                continue
            if inside and line.strip():
                commands.append(line)
    return commands


def at_tested_scale(command):
    if " jobscript " in command:
        return command
    return SCALE_OPTION.sub(lambda m: f"{m.group(1)} {min(int(m.group(2)), LARGEST_TESTED_SCALE)}", command)


class ReadmeQuickStart(unittest.TestCase):
    def test_every_line_works_as_pasted_in_order(self):
        commands = readme_commands(os.path.join(TOP, "README.md"))
        self.assertGreaterEqual(len(commands), 20, "the README's quick start lost its ```sh blocks")
        self.assertEqual(commands[0], "source scripts/env.sh")
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "build"))
            os.symlink(BINARY, os.path.join(tmp, "build", "g500"))
            for name in ("tools", "scripts"):
                os.symlink(os.path.join(TOP, name), os.path.join(tmp, name))
            # Each line echoed, run, and on failure named with its status; the shell stops there.
            script = []
            for command in map(at_tested_scale, commands):
                quoted = command.replace("'", "'\\''")
                script.append(f"echo '+ {quoted}' >&2; start=$SECONDS")
                script.append(command)
                script.append(f"status=$?; if [ $status -ne 0 ]; then echo 'FAILED ('$status'): {quoted}' >&2; "
                              f"exit 1; fi; echo \"  $((SECONDS - start)) s\" >&2")
            env = {k: v for k, v in os.environ.items() if k not in ENV_SET_BY_THE_README}
            started = time.monotonic()
            result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp, env=env, capture_output=True,
                                    text=True, timeout=300)
            self.assertEqual(result.returncode, 0, result.stderr[-4000:])
            self.assertNotIn("FAILED", result.stderr)
            # What the lines promise to make is there.
            for made in ("run.json", "sssp.json", "map.csv", "kron_s10.tsv", "kron_s16.bin", "depths.txt", "d.txt",
                         "ring12.csv", "job.sh", "grid.csv", "fugaku.sh", "report/report.html",
                         "scaling/report/report.html", "a.csv", "simulation.csv"):
                self.assertTrue(os.path.getsize(os.path.join(tmp, made)) > 0, made)
            self.assertIn("validation: 64 of 64 roots passed", result.stdout)
            print(f"{len(commands)} README lines in {time.monotonic() - started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
