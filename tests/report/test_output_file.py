#!/usr/bin/python3
"""tools/output_file.py, through which the report tools write: regular files are replaced whole
(symlinks followed, permissions kept), FIFOs and character devices are written in place and never
replaced, write errors and other file types are one-line errors, stale temporaries are removed;
and g500report turns such an error into one line and a non-zero exit."""
import os
import stat
import subprocess
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "..", "tools")
sys.path.insert(0, TOOLS)

from output_file import OutputError, write_output  # noqa: E402


class WriteOutput(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def temporaries(self, directory=None):
        return [n for n in os.listdir(directory or self.dir) if ".g500-tmp." in n]

    def test_regular_file_is_replaced_and_keeps_its_permissions(self):
        with open(self.path("out.txt"), "w") as f:
            f.write("old\n")
        os.chmod(self.path("out.txt"), 0o600)
        write_output(self.path("out.txt"), "new\n")
        with open(self.path("out.txt")) as f:
            self.assertEqual(f.read(), "new\n")
        self.assertEqual(stat.S_IMODE(os.stat(self.path("out.txt")).st_mode), 0o600)
        self.assertEqual(self.temporaries(), [])

    def test_symlink_is_followed(self):
        os.mkdir(self.path("real"))
        os.symlink("real/target.txt", self.path("link.txt"))
        write_output(self.path("link.txt"), b"through the link\n")
        self.assertTrue(os.path.islink(self.path("link.txt")))
        with open(self.path("real/target.txt")) as f:
            self.assertEqual(f.read(), "through the link\n")

    def test_fifo_is_written_in_place(self):
        fifo = self.path("pipe")
        os.mkfifo(fifo)
        data = b"".join(b"line %d\n" % k for k in range(50000))  # many times a pipe's buffer
        received = []
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader first, so the writer may open
        os.set_blocking(fd, True)

        def read_all():
            chunks = []
            while True:
                chunk = os.read(fd, 1 << 16)  # b"" before the writer opens, and at its end
                if not chunk and chunks:
                    break
                if chunk:
                    chunks.append(chunk)
            received.append(b"".join(chunks))
            os.close(fd)

        reader = threading.Thread(target=read_all)
        reader.start()
        write_output(fifo, data)
        reader.join(timeout=60)
        self.assertEqual(received, [data])
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))

    def test_fifo_without_reader_and_directory_are_refused(self):
        os.mkfifo(self.path("pipe"))
        with self.assertRaisesRegex(OutputError, "it is a FIFO that no process is reading"):
            write_output(self.path("pipe"), "x")
        with self.assertRaisesRegex(OutputError, "it is a directory"):
            write_output(self.dir, "x")
        with self.assertRaisesRegex(OutputError, "directory '.*/no/such' does not exist"):
            write_output(self.path("no/such/file"), "x")

    def test_character_devices(self):
        # Made in the test's own directory: c 1 3 acts as /dev/null, c 1 7 as /dev/full.
        try:
            os.mknod(self.path("null"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            os.mknod(self.path("full"), 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        except PermissionError:
            self.skipTest("mknod is not permitted here (needs root): character devices not tested")
        write_output(self.path("null"), "discarded\n")
        with self.assertRaisesRegex(OutputError, "writing '.*/full' failed: No space left on device"):
            write_output(self.path("full"), "x")
        for name in ("null", "full"):
            self.assertTrue(stat.S_ISCHR(os.lstat(self.path(name)).st_mode))

    def test_temporaries_of_gone_processes_are_removed(self):
        import socket
        host = socket.gethostname()
        gone = f"out.txt.g500-tmp.{host}.999999999"  # above any pid_max: no such process
        alive = f"out.txt.g500-tmp.{host}.1"
        for name in (gone, alive):
            open(self.path(name), "w").close()
        write_output(self.path("out.txt"), "fresh\n")
        self.assertEqual(sorted(self.temporaries()), [alive])

    def test_report_tool_error_is_one_line(self):
        fixture = os.path.join(HERE, "fixtures", "bfs-s10-np1.json")
        out = self.path("report")
        result = subprocess.run([sys.executable, os.path.join(TOOLS, "g500report"), fixture, "--out", out,
                                 "--dump-series", self.dir], capture_output=True, text=True)
        self.assertEqual(result.returncode, 2, result.stderr)  # bad input: exit 2, as docs/report.md says
        self.assertEqual(result.stderr.strip().splitlines(),
                         [f"g500report: error: cannot write '{self.dir}': it is a directory (an output must be "
                          "a regular file, a character device, a FIFO or -)"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
