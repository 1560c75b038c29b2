#!/usr/bin/python3
"""scripts/cluster end to end: g500 on 1, 2 and 3 "hosts" (network namespaces on one bridge)
started by Open MPI's mpirun, every message over TCP, against the Graph500 test vectors; ranks
and whole hosts killed mid-run; a slow host; outputs on hosts that do not share a directory;
ranks placed on the hosts by a `g500 map` rank map (--rankmap).

Where network namespaces cannot be made (no root, no CAP_NET_ADMIN), the script runs on 1 host over
TCP loopback: the tests say so on stdout and check the same results there; the tests that need
separate hosts (a killed host, private directories, stale namespaces) say why they cannot run.

usage: test_cluster.py BUILD/g500 TESTVECTORS_DIR [unittest arguments, e.g. a class name]"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.normpath(os.path.join(HERE, "..", "..", "scripts", "cluster"))
BINARY = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build", "g500")
VECTORS = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else os.path.join(HERE, "..", "vectors")
FALLBACK = "g500 cluster: cannot make network namespaces"
NET = "10.250.0"


def vector(scale):
    with open(os.path.join(VECTORS, f"g500_s{scale}.json")) as f:
        return json.load(f)


def namespaces():
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    return [line.split()[0] for line in out.stdout.splitlines() if line.strip()]


def remove_namespaces_of(pid):
    """Removes what a scripts/cluster process left (only when a test failed or killed it)."""
    left = [ns for ns in namespaces() if ns.startswith(f"g500c-{pid}-")]
    for ns in left:
        pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
        for p in pids:
            try:
                os.kill(int(p), signal.SIGKILL)
            except ProcessLookupError:
                pass
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    return left


_can_make_namespaces = None


def can_make_namespaces():
    """Whether this process may make network namespaces (tried once, with a name scripts/cluster
    never takes for its own)."""
    global _can_make_namespaces
    if _can_make_namespaces is None:
        name = f"g500c-{os.getpid()}-probe"
        made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
        _can_make_namespaces = made.returncode == 0
        if _can_make_namespaces:
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return _can_make_namespaces


def processes_with(text):
    """Pids of live g500 processes whose command line contains text."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as f:
                comm = f.read().strip()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if comm == "g500" and text in cmdline and state != "Z":
            found.append(int(entry))
    return found


def processes_of_run(script_pid):
    """Processes started outside the namespaces by the scripts/cluster process script_pid."""
    marker = f"G500_CLUSTER_ID=g500c-{script_pid}".encode()
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if marker in f.read().split(b"\0"):
                    found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


def rank_of(pid):
    with open(f"/proc/{pid}/environ", "rb") as f:
        for item in f.read().split(b"\0"):
            if item.startswith(b"OMPI_COMM_WORLD_RANK="):
                return int(item.split(b"=", 1)[1])
    return None


class Cluster:
    """One scripts/cluster run, started in the background; its output goes to files in `logs`."""

    def __init__(self, test, cluster_args, g500_args, binary=BINARY, preexec=()):
        self.logs = tempfile.mkdtemp(prefix="g500-cluster-test-")
        test.addCleanup(shutil.rmtree, self.logs, True)
        self.out_path, self.err_path = os.path.join(self.logs, "out"), os.path.join(self.logs, "err")
        with open(self.out_path, "w") as out, open(self.err_path, "w") as err:
            self.proc = subprocess.Popen([*preexec, SCRIPT, *cluster_args, "--binary", binary, "--", *g500_args],
                                         stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        self.test = test
        test.addCleanup(self.kill)

    @property
    def pid(self):
        return self.proc.pid

    def kill(self):
        """Stops a run a test leaves behind: the script first (it cleans up), then by force."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pid in processes_of_run(self.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        remove_namespaces_of(self.pid)

    def wait(self, timeout):
        try:
            self.status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.test.fail(f"scripts/cluster did not end within {timeout} s; stderr:\n{self.err()}")
        left = remove_namespaces_of(self.pid)
        self.test.assertEqual(left, [], "scripts/cluster left namespaces behind")
        time.sleep(0.2)  # the launcher's last processes may still be exiting
        self.test.assertEqual(processes_of_run(self.pid), [], "scripts/cluster left processes behind")
        return self.status

    def out(self):
        with open(self.out_path) as f:
            return f.read()

    def err(self):
        with open(self.err_path) as f:
            return f.read()

    def fell_back(self):
        return FALLBACK in self.err()

    def wait_for(self, text, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.err():
                return
            if self.proc.poll() is not None:
                self.test.fail(f"the run ended before '{text}'; stderr:\n{self.err()}")
            time.sleep(0.2)
        self.test.fail(f"no '{text}' within {timeout} s; stderr:\n{self.err()}")


def report_fallback(cluster):
    line = next(l for l in cluster.err().splitlines() if l.startswith(FALLBACK))
    print(f"\n  fell back to 1 host over TCP loopback: {line}", flush=True)


class ClusterTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="g500-cluster-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def run_cluster(self, cluster_args, g500_args, timeout=240, **kw):
        c = Cluster(self, cluster_args, g500_args, **kw)
        c.wait(timeout)
        if c.fell_back():
            report_fallback(c)
        return c

    def placement_wrapper(self, name="placement"):
        """A program for --binary that records where each rank runs, how MPI is configured and
        on which cores, then becomes g500."""
        record = os.path.join(self.dir, name)
        os.mkdir(record)
        path = os.path.join(self.dir, f"g500-{name}")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n"
                    f'echo "$(hostname) $(ip netns identify 2>/dev/null) $OMPI_MCA_btl $OMPI_MCA_btl_tcp_if_include '
                    f'$(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status)" '
                    f'> {record}/rank.$OMPI_COMM_WORLD_RANK\n'
                    f'exec {BINARY} "$@"\n')
        os.chmod(path, 0o755)
        return path, record

    def check_placement(self, c, record, hosts, per_host, host_of=None):
        """Each rank ran on its host (host_of[rank], else ranks (I-1)K .. IK-1 on host I), over TCP,
        and on every core of the machine, as this process (not bound to a core)."""
        files = sorted(os.listdir(record))
        self.assertEqual(files, sorted(f"rank.{r}" for r in range(hosts * per_host)))
        with open("/proc/self/status") as f:
            cpus = next(l.split()[1] for l in f if l.startswith("Cpus_allowed_list:"))
        for r in range(hosts * per_host):
            with open(os.path.join(record, f"rank.{r}")) as f:
                fields = f.read().split()
            self.assertEqual(fields[-1], cpus, f"rank {r} is bound to cores {fields[-1]}")
            if c.fell_back():
                self.assertEqual(fields[-3:-1], ["tcp,self", "lo"], f"rank {r}")
                continue
            h = host_of[r] if host_of else r // per_host + 1
            self.assertEqual(fields[:-1], [f"g500-host{h}", f"g500c-{c.pid}-h{h}", "tcp,self", f"{NET}.0/24"], f"rank {r}")

    def check_traffic(self, c, hosts, at_least_mb):
        """MB each host sent over the network (None after the fall-back to 1 host)."""
        if c.fell_back():
            return None
        line = next(l for l in c.err().splitlines() if l.startswith("g500 cluster: MB sent over the network: "))
        sent = {int(h): float(mb) for h, mb in re.findall(r"host(\d+) ([0-9.]+)", line)}
        self.assertEqual(sorted(sent), list(range(1, hosts + 1)), line)
        for h, mb in sent.items():
            self.assertGreater(mb, at_least_mb, f"host {h}: {line}")
        return sent

    def check_bfs_json(self, path, scale, ranks, nroots=64):
        with open(path) as f:
            j = json.load(f)
        vec = vector(scale)
        self.assertEqual(j["config"]["ranks"], ranks)
        self.assertEqual(len(j["roots"]), nroots)
        for got, want in zip(j["roots"], vec["roots"][:nroots]):
            self.assertEqual(got["root"], want["root"])
            self.assertEqual(got["reached"], want["reached"], got["root"])
            self.assertEqual(got["nedge"], want["nedge_for_teps"], got["root"])
            self.assertEqual(got["level_sizes"], want["level_sizes"], got["root"])
            self.assertTrue(got["validated"], got["root"])
        self.assertTrue(j["summary"]["validation_passed"])
        self.assertGreater(j["summary"]["harmonic_mean_TEPS"], 0)
        return j

    def check_refused(self, cases):
        """Each (arguments, message): scripts/cluster exits 2 with that one line and makes nothing."""
        # Other cluster tests may run at the same time: only this script's own namespaces count.
        for args, message in cases:
            p = subprocess.Popen([SCRIPT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            out, err = p.communicate()
            self.assertEqual(p.returncode, 2, args)
            self.assertEqual(err, f"scripts/cluster: error: {message}\n", args)
            self.assertEqual(out, "")
            self.assertEqual(remove_namespaces_of(p.pid), [], args)

    def check_no_output_left(self, directory):
        self.assertEqual(os.listdir(directory), [], "the failed run left files (a result or a temporary)")


class Vectors(ClusterTest):
    """BFS at SCALE 16 (64 roots) and SSSP at SCALE 16 (4 roots) on 2 and 3 hosts x 2 ranks: the
    test vectors' results, validated, with each rank on its host and real traffic between hosts."""

    def bfs_on(self, hosts):
        binary, record = self.placement_wrapper()
        out = os.path.join(self.dir, "run.json")
        c = self.run_cluster(["--hosts", str(hosts), "--ranks-per-host", "2"], ["bfs", "--scale", "16", "--json", out],
                             binary=binary)
        self.assertEqual(c.status, 0, c.err())
        self.assertIn(f"num_mpi_processes:              {2 * hosts}\n", c.out())
        self.assertIn("bfs  harmonic_mean_TEPS:     !  ", c.out())
        self.check_bfs_json(out, 16, 2 * hosts)
        self.check_placement(c, record, hosts, 2)
        self.check_traffic(c, hosts, 1.0)

    def sssp_on(self, hosts):
        out = os.path.join(self.dir, "sssp.json")
        c = self.run_cluster(["--hosts", str(hosts), "--ranks-per-host", "2"],
                             ["sssp", "--scale", "16", "--roots", "4", "--json", out])
        self.assertEqual(c.status, 0, c.err())
        self.assertIn("sssp harmonic_mean_TEPS:     !  ", c.out())
        with open(out) as f:
            j = json.load(f)
        self.assertEqual(j["config"]["ranks"], 2 * hosts)
        self.assertEqual(len(j["roots"]), 4)
        for got, want in zip(j["roots"], vector(16)["roots"]):
            self.assertEqual(got["root"], want["root"])
            self.assertEqual(got["reached"], want["reached"])
            self.assertLessEqual(abs(got["sum_dist"] - want["sssp_sum_dist"]), 1e-6 * want["sssp_sum_dist"])
            self.assertLessEqual(abs(got["max_dist"] - want["sssp_max_dist"]), 1e-6 * want["sssp_max_dist"])
            self.assertTrue(got["validated"])
        self.assertTrue(j["summary"]["validation_passed"])
        self.check_traffic(c, hosts, 0.5)

    def test_bfs_2_hosts(self):
        self.bfs_on(2)

    def test_bfs_3_hosts(self):
        self.bfs_on(3)

    def test_sssp_2_hosts(self):
        self.sssp_on(2)

    def test_bfs_2_hosts_in_small_messages(self):
        # Every MPI call within 4 KiB, below Open MPI's TCP eager limit (64 KiB): only the eager
        # protocol, where the default runs above also take the rendezvous one.
        out = os.path.join(self.dir, "small.json")
        c = self.run_cluster(["--hosts", "2", "--ranks-per-host", "2"],
                             ["bfs", "--scale", "16", "--roots", "8", "--max-message-bytes", "4096", "--json", out])
        self.assertEqual(c.status, 0, c.err())
        self.check_bfs_json(out, 16, 4, nroots=8)

    def test_sssp_3_hosts(self):
        self.sssp_on(3)


class Fallback(ClusterTest):
    """Without the rights to make namespaces (capabilities dropped), the same command runs on 1 host
    over TCP loopback, says so in one line, and gives the same results."""

    def without_namespaces(self):
        if os.geteuid() != 0:
            return ()  # namespaces cannot be made anyway
        if not shutil.which("setpriv"):
            self.skipTest("setpriv (util-linux) is missing: cannot drop the capabilities")
        return ("setpriv", "--bounding-set", "-net_admin,-sys_admin", "--inh-caps", "-net_admin,-sys_admin")

    def test_bfs_and_sssp_fall_back_to_loopback(self):
        binary, record = self.placement_wrapper()
        out = os.path.join(self.dir, "run.json")
        c = self.run_cluster(["--hosts", "2", "--ranks-per-host", "2", "--delay", "5"],
                             ["bfs", "--scale", "16", "--json", out], binary=binary, preexec=self.without_namespaces())
        self.assertEqual(c.status, 0, c.err())
        notes = [l for l in c.err().splitlines() if l.startswith(FALLBACK)]
        self.assertEqual(len(notes), 1, c.err())
        self.assertRegex(notes[0], r"\(.+\): running on 1 host over TCP loopback instead, without --delay/--rate$")
        self.assertIn("g500 cluster: 1 host x 4 ranks over TCP loopback\n", c.err())
        self.check_bfs_json(out, 16, 4)
        self.check_placement(c, record, 2, 2)
        with open(os.path.join(record, "rank.0")) as f:
            host0 = f.read().split()[0]
        self.assertEqual(host0, os.uname().nodename)

        out = os.path.join(self.dir, "sssp.json")
        c = self.run_cluster(["--hosts", "3", "--ranks-per-host", "2"], ["sssp", "--scale", "16", "--roots", "4", "--json", out],
                             preexec=self.without_namespaces())
        self.assertEqual(c.status, 0, c.err())
        self.assertIn("g500 cluster: 1 host x 6 ranks over TCP loopback\n", c.err())
        with open(out) as f:
            j = json.load(f)
        for got, want in zip(j["roots"], vector(16)["roots"]):
            self.assertLessEqual(abs(got["sum_dist"] - want["sssp_sum_dist"]), 1e-6 * want["sssp_sum_dist"])
        self.assertTrue(j["summary"]["validation_passed"])

    def test_private_dir_needs_namespaces(self):
        c = self.run_cluster(["--hosts", "2", "--private-dir", self.dir], ["bfs", "--scale", "8"],
                             preexec=self.without_namespaces())
        self.assertEqual(c.status, 2)
        self.assertRegex(c.err(), r"^scripts/cluster: error: --private-dir needs namespaces, which cannot be made here \(.+\)\n$")


class Failures(ClusterTest):
    """A rank or a whole host killed in the middle of a BFS: the job ends within 30 s with a
    non-zero status, a line naming the rank or host, and no result file or temporary left. A slow
    host: the run completes and validates."""

    LONG_BFS = ["bfs", "--scale", "16", "--roots", "20000", "--progress"]

    def start_long_bfs(self, hosts, per_host):
        results = os.path.join(self.dir, "results")
        os.mkdir(results)
        out = os.path.join(results, "run.json")
        c = Cluster(self, ["--hosts", str(hosts), "--ranks-per-host", str(per_host)], [*self.LONG_BFS, "--json", out])
        c.wait_for("BFS roots", 120)
        if c.fell_back():
            report_fallback(c)
        time.sleep(1)
        return c, results, out

    def end_after_kill(self, c, killed_at):
        status = c.wait(60)
        took = time.monotonic() - killed_at
        self.assertLess(took, 30, f"the job took {took:.1f} s to end")
        self.assertNotEqual(status, 0)
        return status

    def test_killed_rank(self):
        c, results, out = self.start_long_bfs(2, 2)
        pids = {rank_of(p): p for p in processes_with(out)}
        self.assertEqual(sorted(pids), [0, 1, 2, 3])
        if not c.fell_back():
            ns_pids = subprocess.run(["ip", "netns", "pids", f"g500c-{c.pid}-h2"], capture_output=True, text=True).stdout
            self.assertIn(str(pids[3]), ns_pids.split(), "rank 3 is not on host 2")
        os.kill(pids[3], signal.SIGKILL)
        killed_at = time.monotonic()
        self.end_after_kill(c, killed_at)
        err = c.err()
        self.assertRegex(err, r"mpirun noticed that process rank 3 with PID \d+ on node \S+ exited on signal 9")
        if c.fell_back():
            self.assertRegex(err, r"\ng500 cluster: rank 3 died \(signal 9, Killed\) during BFS roots \(\d+ of 20000 done"
                                  r"(, validating)?\)\n")
        else:
            self.assertRegex(err, rf"\ng500 cluster: rank 3 on host 2 \({re.escape(NET)}\.2\) died \(signal 9, Killed\) "
                                  r"during BFS roots \(\d+ of 20000 done(, validating)?\)\n")
        # Rank 0, stopped by mpirun, says where it was at most once: its line is lost when mpirun
        # exits before forwarding it (or when rank 0 leaves on the peer's MPI error first), which
        # is why the script's own line above, always there, names the phase.
        self.assertLessEqual(len(re.findall(r"(?m)^g500 bfs: stopped by SIGTERM during BFS roots \(\d+ of 20000 done"
                                            r"(, validating)?\)$", err)), 1, err)
        self.assertEqual(processes_with(out), [])
        self.check_no_output_left(results)

    def test_killed_host(self):
        if not can_make_namespaces():
            self.skipTest("no namespaces here: one host only, no host to lose")
        c, results, out = self.start_long_bfs(3, 2)
        ns = f"g500c-{c.pid}-h3"
        pids = [int(p) for p in subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()]
        self.assertEqual(sorted(rank_of(p) for p in pids if p in processes_with(out)), [4, 5])
        for p in pids:
            os.kill(p, signal.SIGKILL)
        killed_at = time.monotonic()
        self.end_after_kill(c, killed_at)
        err = c.err()
        self.assertRegex(err, rf"Remote daemon: \[\[\d+,0\],2\] on node {NET}\.3\n")
        self.assertRegex(err, rf"\ng500 cluster: host 3 \({re.escape(NET)}\.3\) was lost during BFS roots \(\d+ of 20000 "
                              r"done(, validating)?\): its Open MPI daemon died or became unreachable \(it ran ranks 4-5\)\n")
        self.assertEqual(processes_with(out), [])
        self.check_no_output_left(results)

    def test_phase_from_the_last_progress_line(self):
        """When mpirun ends before rank 0's stop line reaches it, the script names the phase from
        rank 0's last progress line (the same words as the stop line), or says nothing of a phase
        that had ended."""
        with open(SCRIPT) as f:
            function = re.search(r"(?ms)^phase_of_last_progress_line\(\) \{.*?^\}$", f.read()).group(0)
        cases = [
            ("\x1b[Kg500: kernel 1: building the graph ... 0.2s done\n\n\x1b[Kg500: BFS roots 0/20000 (0%) 0.0s"
             "\r\x1b[Kg500: BFS roots 3/20000 (0%) 0.9s validating-----\nORTE has lost communication\n",
             "BFS roots (3 of 20000 done, validating)"),
            ("\x1b[Kg500: BFS roots 12/64 (19%) 2.5s\nmpirun noticed\n", "BFS roots (12 of 64 done)"),
            ("\x1b[Kg500: kernel 1: building the graph ... 4.0s\n", "kernel 1: building the graph"),
            ("\x1b[Kg500: kernel 1: building the graph ... 4.2s done\n", ""),
            ("no progress at all\n", ""),
        ]
        for text, phase in cases:
            path = os.path.join(self.dir, "stderr")
            with open(path, "w") as f:
                f.write(text)
            got = subprocess.run(["bash", "-c", f'{function}\nphase_of_last_progress_line "$1"', "-", path],
                                 capture_output=True, text=True, check=True).stdout.strip()
            self.assertEqual(got, phase, text)

    def test_slow_host(self):
        out = os.path.join(self.dir, "run.json")
        c = self.run_cluster(["--hosts", "2", "--ranks-per-host", "2", "--slow-host", "2", "--delay", "5"],
                             ["bfs", "--scale", "16", "--roots", "8", "--json", out])
        self.assertEqual(c.status, 0, c.err())
        j = self.check_bfs_json(out, 16, 4, nroots=8)
        if c.fell_back():
            return
        self.assertIn("+5 ms one way on host 2's link only\n", c.err())
        # Every BFS level exchanges messages with host 2: 5 levels or more, 5 ms each way.
        fastest = min(r["time_s"] for r in j["roots"])
        self.assertGreater(fastest, 0.010, "the delay on host 2's link did not slow the BFS down")
        # The phase profile shows where it went: every level's column allgatherv needs data that
        # ranks of the other host made in that level (grid 2x2, a host holds a grid row), so each
        # rank waits at least the one-way delay per level, in communication or at the level's end.
        # Over all roots the waiting outweighs the calculation tenfold: summed, since one root's
        # calculation can stretch by itself when the 4 ranks' 2 cores are shared with other tests.
        waited_in_all = calculation_in_all = 0.0
        for r in j["roots"]:
            waited = sum(r["profile"][p] for p in ("allgatherv", "alltoallv", "sendrecv", "imbalance"))
            levels = len(r["level_sizes"])
            self.assertGreater(waited, 0.005 * (levels - 1), f"root {r['root']}: {r['profile']}, {levels} levels")
            waited_in_all += waited
            calculation_in_all += r["profile"]["calculation"]
        self.assertGreater(waited_in_all, 10 * calculation_in_all, [r["profile"] for r in j["roots"]])


class Links(ClusterTest):
    """--delay, --slow-host and --rate measured with plain TCP between the hosts (link_probe.py):
    round trips of one byte and the rate of a 4 MB transfer to host 1."""

    def probe(self, hosts, shaping):
        if not can_make_namespaces():
            self.skipTest("no namespaces here: no links to shape")
        c = self.run_cluster(["--hosts", str(hosts), *shaping], ["4"], binary=os.path.join(HERE, "link_probe.py"),
                             timeout=120)
        if c.fell_back():
            self.skipTest("no namespaces here: no links to shape")
        self.assertEqual(c.status, 0, c.err())
        found = {int(r): (float(rtt), float(rate)) for r, rtt, rate in
                 re.findall(r"rank (\d+) on g500-host\d+: rtt ([0-9.]+) ms, ([0-9.]+) Mbit/s", c.out())}
        self.assertEqual(sorted(found), list(range(1, hosts)), c.out())
        return found

    def test_slow_host(self):
        m = self.probe(3, ["--slow-host", "2", "--delay", "10", "--rate", "50"])
        (rtt2, rate2), (rtt3, rate3) = m[1], m[2]
        self.assertGreater(rtt2, 19.5)  # 10 ms each way on host 2's link
        self.assertLess(rtt2, 60)
        self.assertLess(rate2, 55)
        self.assertLess(rtt3, 10)  # host 3's link is not shaped
        self.assertGreater(rate3, 75)

    def test_every_link(self):
        m = self.probe(3, ["--delay", "6"])
        for rtt, _ in m.values():
            self.assertGreater(rtt, 11.5)  # 3 ms each way on each of the two links crossed
            self.assertLess(rtt, 50)


class Outputs(ClusterTest):
    """Hosts that do not share the output directory (--private-dir): rank 0's files appear on host
    1 only, streams reach the launcher, parallel writes to a file fail with one line and leave
    nothing; with a shared directory the parallel write across hosts is the reference edge list."""

    def setUp(self):
        super().setUp()
        self.shared = os.path.join(self.dir, "out")
        os.mkdir(self.shared)

    def host_dir(self, h):
        return f"{self.shared}.host{h}"

    def private(self, g500_args, hosts=2):
        c = self.run_cluster(["--hosts", str(hosts), "--ranks-per-host", "2", "--private-dir", self.shared], g500_args)
        if not can_make_namespaces():
            self.assertEqual(c.status, 2)
            self.assertIn("scripts/cluster: error: --private-dir needs namespaces, which cannot be made here", c.err())
            self.skipTest("no namespaces here: --private-dir refused, as it must be")
        return c

    def test_rank0_files_and_streams(self):
        c = self.private(["bfs", "--scale", "12", "--roots", "2", "--json", f"{self.shared}/run.json",
                          "--output-parents", "-"])
        self.assertEqual(c.status, 0, c.err())
        self.assertEqual(os.listdir(self.host_dir(1)), ["run.json"])
        self.assertEqual(os.listdir(self.host_dir(2)), [])
        self.assertEqual(os.listdir(self.shared), [])  # what the hosts saw there was their own directory
        with open(os.path.join(self.host_dir(1), "run.json")) as f:
            self.assertTrue(json.load(f)["summary"]["validation_passed"])
        parents = [l for l in c.out().splitlines() if re.fullmatch(r"\d+ -?\d+", l)]
        self.assertEqual(len(parents), 1 << 12)  # every vertex, from the ranks of both hosts
        self.assertEqual(sorted(int(l.split()[0]) for l in parents), list(range(1 << 12)))

    def test_parallel_file_write_needs_a_shared_directory(self):
        c = self.private(["bfs", "--scale", "12", "--roots", "2", "--output-parents", f"{self.shared}/parents.txt"])
        self.assertEqual(c.status, 2)
        self.assertRegex(c.err(), rf"g500 bfs: error: cannot write '{re.escape(self.shared)}/parents.txt' on rank [23]: "
                                  rf"cannot open '{re.escape(self.shared)}/parents.txt\.g500-tmp\.g500-host1\.\d+': "
                                  r"No such file or directory\n")
        for h in (1, 2):
            self.assertEqual(os.listdir(self.host_dir(h)), [])

        c = self.private(["gen", "--scale", "10", "--output", f"{self.shared}/k.tsv"])
        self.assertEqual(c.status, 2)
        self.assertRegex(c.err(), r"g500 gen: error: cannot write '.*/k\.tsv' on rank [23]: cannot open .*: No such file")
        for h in (1, 2):
            self.assertEqual(os.listdir(self.host_dir(h)), [])

    def test_input_must_be_on_every_host(self):
        os.makedirs(self.host_dir(1), exist_ok=True)
        with open(os.path.join(self.host_dir(1), "g.tsv"), "w") as f:
            f.write("0 1\n1 2\n2 3\n3 0\n")
        c = self.private(["bfs", "--input", f"{self.shared}/g.tsv"])
        self.assertEqual(c.status, 2)
        self.assertIn(f"g500 bfs: error: cannot open '{self.shared}/g.tsv': No such file or directory\n", c.err())

    def reference_edges(self):
        with open(os.path.join(VECTORS, "kron_s10_ef16_weighted.tsv")) as f:
            return [l for l in f if not l.startswith("#")]

    def test_edge_list_across_hosts(self):
        # Streamed through rank 0 from hosts without a shared directory.
        c = self.private(["gen", "--scale", "10", "--weights", "--output", "-"], hosts=3)
        self.assertEqual(c.status, 0, c.err())
        self.assertEqual([l + "\n" for l in c.out().splitlines() if re.fullmatch(r"\d+\t\d+\t\S+", l)],
                         self.reference_edges())
        # Written in parallel into one shared file by the ranks of 3 hosts.
        path = os.path.join(self.dir, "k.tsv")
        c = self.run_cluster(["--hosts", "3", "--ranks-per-host", "2"], ["gen", "--scale", "10", "--weights", "--output", path])
        self.assertEqual(c.status, 0, c.err())
        with open(path) as f:
            self.assertEqual([l for l in f if not l.startswith("#")], self.reference_edges())


class Placement(ClusterTest):
    """--rankmap: the ranks placed on the hosts as a `g500 map` CSV says, through an Open MPI
    rankfile, and the map passed on to g500 bfs. A 2x2 grid on 2 hosts x 2 ranks, one host per
    grid row or one per grid column; bad maps refused in one line before anything starts."""

    # g500 map numbers the nodes with the first axis fastest, and host I holds nodes (I-1)K..IK-1:
    # with --axes b/a the rows run along b, so node (a, b) = a + 2b holds rank 2b + a and each
    # host holds a grid row; with --axes a/b each host holds a grid column.
    MAPS = {"row-per-host": ("b/a", {0: 1, 1: 1, 2: 2, 3: 2}, "host 1: ranks 0-1; host 2: ranks 2-3"),
            "column-per-host": ("a/b", {0: 1, 1: 2, 2: 1, 3: 2}, "host 1: ranks 0, 2; host 2: ranks 1, 3")}

    def make_map(self, name):
        path = os.path.join(self.dir, f"{name}.csv")
        subprocess.run([BINARY, "map", "--shape", "a=2m,b=2m", "--grid", "2x2", "--axes", self.MAPS[name][0],
                        "--output", path], check=True, capture_output=True)
        return path

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def bfs_placed(self, name):
        path = self.make_map(name)
        _, host_of, hosts_text = self.MAPS[name]
        binary, record = self.placement_wrapper(name)
        out = os.path.join(self.dir, f"{name}.json")
        c = self.run_cluster(["--hosts", "2", "--ranks-per-host", "2", "--rankmap", path],
                             ["bfs", "--scale", "16", "--json", out], binary=binary)
        self.assertEqual(c.status, 0, c.err())
        if c.fell_back():
            self.assertIn(f"g500 cluster: 1 host x 4 ranks over TCP loopback, rank map {path} (its hosts not applied: "
                          "every rank on this one)\n", c.err())
        else:
            self.assertRegex(c.err(), rf"g500 cluster: 2 hosts x 2 ranks over TCP: .*, rank map {re.escape(path)} "
                                      rf"\({hosts_text}\)\n")
        j = self.check_bfs_json(out, 16, 4)
        self.assertEqual(j["config"]["grid"], {"rows": 2, "cols": 2})
        self.assertEqual(j["config"]["options"]["rankmap"], path)  # passed on to g500 bfs
        self.check_placement(c, record, 2, 2, host_of)
        sent = self.check_traffic(c, 2, 1.0)
        return sum(sent.values()) if sent else None

    def test_row_and_column_per_host(self):
        rows = self.bfs_placed("row-per-host")
        columns = self.bfs_placed("column-per-host")
        if rows is None:
            return
        # With a grid row per host the traffic along the grid columns crosses the network, with a
        # column per host the traffic along the rows; kernel 1's routing over the world crosses
        # alike both ways. The BFS itself sends about as much along rows as along columns (82 and
        # 90 KB per root at SCALE 16, its own byte counts; 16.3 MB in all either way with
        # --no-validate). What differs is the validation: its edge check gathers every vertex's
        # 2-byte depth and parent fingerprint over the world (validate/edge_check_replicated.cpp),
        # 32 KiB per rank, which Open MPI and MPICH do by recursive doubling at 4 ranks: 32 KiB to
        # rank r ^ 1 (the same grid row), then 64 KiB to rank r ^ 2 (the same grid column). A row
        # per host puts the larger step across the network: 4 x 32 KiB more per root, 8.4 MB over
        # 64 roots, about 15 % of the run's traffic (measured: 67.2 against 56.6 MB).
        self.assertGreater(rows, columns * 1.08, f"MB sent: a row per host {rows}, a column per host {columns}")
        self.assertLess(rows, columns * 1.35, f"MB sent: a row per host {rows}, a column per host {columns}")

    def test_loopback_and_the_map_given_to_g500_too(self):
        path = self.make_map("column-per-host")
        out = os.path.join(self.dir, "run.json")
        c = self.run_cluster(["--loopback", "--hosts", "2", "--ranks-per-host", "2", "--rankmap", path],
                             ["bfs", "--scale", "10", "--roots", "4", "--rankmap", path, "--json", out])
        self.assertEqual(c.status, 0, c.err())
        self.assertIn(f"g500 cluster: 1 host x 4 ranks over TCP loopback, rank map {path} (its hosts not applied: "
                      "every rank on this one)\n", c.err())
        with open(out) as f:
            j = json.load(f)
        self.assertEqual(j["config"]["options"]["rankmap"], path)
        self.assertTrue(j["summary"]["validation_passed"])
        # A command without a grid runs placed, without the map among its arguments.
        c = self.run_cluster(["--loopback", "--hosts", "2", "--ranks-per-host", "2", "--rankmap", path],
                             ["gen", "--scale", "6", "--output", "-"])
        self.assertEqual(c.status, 0, c.err())
        self.assertEqual(len([l for l in c.out().splitlines() if re.fullmatch(r"\d+\t\d+", l)]), 16 << 6)

    def test_bad_maps(self):
        good = self.make_map("row-per-host")
        header = "rank,row,col,a,b\n"
        crowded = self.write("crowded.csv", header + "0,0,0,0,0\n1,0,1,1,0\n2,1,0,1,0\n3,1,1,1,1\n")
        sparse = self.write("sparse.csv", header + "0,0,0,0,0\n1,0,1,1,0\n2,1,0,0,1\n3,1,1,0,2\n")
        repeated = self.write("repeated.csv", header + "0,0,0,0,0\n1,0,1,1,0\n1,1,0,0,1\n3,1,1,1,1\n")
        gap = self.write("gap.csv", header + "0,0,0,0,0\n1,0,1,1,0\n2,1,0,0,1\n4,1,1,1,1\n")
        no_coords = self.write("no-coords.csv", "rank,row,col\n0,0,0\n1,0,1\n2,1,0\n3,1,1\n")
        short = self.write("short.csv", header + "0,0,0,0,0\n1,0,1,1\n")
        word = self.write("word.csv", header + "0,0,0,0,x\n")
        empty = self.write("empty.csv", "")
        missing = os.path.join(self.dir, "missing.csv")
        other = self.make_map("column-per-host")
        cases = [
            (["--hosts", "3", "--ranks-per-host", "2", "--rankmap", good, "--", "bfs"],
             f"--rankmap {good} lists 4 ranks but the cluster runs 3 hosts x 2 ranks = 6"),
            (["--hosts", "2", "--ranks-per-host", "2", "--rankmap", crowded, "--", "bfs"],
             f"--rankmap {crowded} puts 3 ranks (0, 1, 2) on host 1, more than --ranks-per-host 2"),
            (["--hosts", "2", "--ranks-per-host", "2", "--rankmap", sparse, "--", "bfs"],
             f"--rankmap {sparse}:5: rank 3 is on node 4 (0,2), beyond the 4 nodes of the cluster (0-3)"),
            (["--hosts", "2", "--ranks-per-host", "2", "--rankmap", repeated, "--", "bfs"],
             f"--rankmap {repeated}:4: rank 1 repeated (first on line 3)"),
            (["--hosts", "2", "--ranks-per-host", "2", "--rankmap", gap, "--", "bfs"],
             f"--rankmap {gap} has no line for rank 3 (ranks 0-3)"),
            (["--hosts", "2", "--ranks-per-host", "2", "--rankmap", no_coords, "--", "bfs"],
             f"--rankmap {no_coords}:1: expected the header rank,row,col followed by coordinate columns (a g500 map "
             "CSV), got 'rank,row,col'"),
            (["--rankmap", short, "--", "bfs"], f"--rankmap {short}:3: expected 5 fields, found 4"),
            (["--rankmap", word, "--", "bfs"], f"--rankmap {word}:2: 'x' is not a whole number of at most 9 digits"),
            (["--rankmap", empty, "--", "bfs"], f"--rankmap {empty}: empty file (expected a g500 map CSV)"),
            (["--rankmap", missing, "--", "bfs"], f"--rankmap '{missing}' is not a readable file"),
            (["--rankmap", self.dir, "--", "bfs"], f"--rankmap '{self.dir}' is not a readable file"),
            (["--rankmap"], "--rankmap needs a value"),
            (["--hosts", "2", "--ranks-per-host", "2", "--rankmap", good, "--", "bfs", "--rankmap", other],
             f"g500's --rankmap '{other}' is not the file of scripts/cluster's --rankmap ({good}); give the map once, "
             "before --"),
        ]
        self.check_refused(cases)


class Script(ClusterTest):
    """Arguments, signals, stale namespaces of killed runs, and two runs at once."""

    def test_bad_arguments(self):
        cases = [
            (["--hosts", "0", "--", "bfs"], "--hosts must be a whole number, at least 1 (got '0')"),
            (["--hosts", "two", "--", "bfs"], "--hosts must be a whole number, at least 1 (got 'two')"),
            (["--hosts", "251", "--", "bfs"], "--hosts must be at most 250 (one /24 network; got '251')"),
            (["--ranks-per-host", "0", "--", "bfs"], "--ranks-per-host must be a whole number, at least 1 (got '0')"),
            (["--frobnicate", "--", "bfs"], "unknown option '--frobnicate' (see --help; g500's own options go after --)"),
            (["--hosts", "2", "bfs"], "unexpected 'bfs': the g500 command goes after -- (scripts/cluster --hosts 2 -- bfs --scale 16)"),
            (["--hosts", "2"], "no g500 arguments (e.g. scripts/cluster --hosts 2 -- bfs --scale 16)"),
            (["--hosts"], "--hosts needs a value"),
            (["--delay", "-1", "--", "bfs"], "--delay must be a number of milliseconds, 0 or more (got '-1')"),
            (["--rate", "0", "--", "bfs"], "--rate must be a positive number (got '0')"),
            (["--slow-host", "3", "--delay", "1", "--", "bfs"], "--slow-host 3 is not one of the 2 hosts"),
            (["--slow-host", "1", "--", "bfs"], "--slow-host needs --delay or --rate"),
            (["--private-dir", "/nonexistent-dir", "--", "bfs"], "--private-dir '/nonexistent-dir' is not a directory"),
            (["--binary", "/nonexistent/g500", "--", "bfs"], "no g500 binary at /nonexistent/g500 (build it: cmake -S . -B "
                                                            "build -G Ninja && ninja -C build, or bash scripts/setup)"),
        ]
        self.check_refused(cases)
        r = subprocess.run([SCRIPT, "--help"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        self.assertIn("usage: scripts/cluster [--hosts N] [--ranks-per-host K]", r.stdout)

    def test_terminated_run_cleans_up(self):
        results = os.path.join(self.dir, "results")
        os.mkdir(results)
        out = os.path.join(results, "run.json")
        c = Cluster(self, ["--hosts", "2"], [*Failures.LONG_BFS, "--json", out])
        c.wait_for("BFS roots", 120)
        c.proc.send_signal(signal.SIGTERM)
        status = c.wait(30)
        self.assertEqual(status, 128 + signal.SIGTERM)
        self.assertTrue(c.err().endswith("g500 cluster: stopped by SIGTERM\n"), c.err()[-500:])
        self.assertEqual(processes_with(out), [])
        self.assertEqual(glob.glob(f"/tmp/g500c-{c.pid}.*"), [])
        self.assertEqual(os.listdir(results), [])

    def test_processes_of_a_killed_run_are_stopped_by_the_next(self):
        killed = Cluster(self, ["--loopback", "--hosts", "2"], [*Failures.LONG_BFS, "--json", os.path.join(self.dir, "a.json")])
        killed.wait_for("BFS roots", 120)
        killed.proc.kill()  # SIGKILL: the script cannot clean up; mpirun and its 2 ranks go on
        killed.proc.wait()
        self.assertGreaterEqual(len(processes_of_run(killed.pid)), 3)
        self.assertEqual(len(glob.glob(os.path.join(self.dir, "a.json.g500-tmp.*"))), 1)
        c = self.run_cluster(["--loopback"], ["bfs", "--scale", "8", "--roots", "2", "--json", os.path.join(self.dir, "a.json")])
        self.assertEqual(c.status, 0, c.err())
        time.sleep(0.5)
        self.assertEqual(processes_of_run(killed.pid), [])
        self.assertEqual(glob.glob(f"/tmp/g500c-{killed.pid}.*"), [])
        # The killed run's temporary went when the next run wrote the same file (OutputFile's rule).
        self.assertEqual(os.listdir(self.dir), ["a.json"])

    def test_stale_namespaces_are_removed_and_runs_do_not_collide(self):
        if not can_make_namespaces():
            self.skipTest("no namespaces here: none can be stale")
        dead = subprocess.Popen(["true"])
        dead.wait()
        stale = f"g500c-{dead.pid}-h1"
        subprocess.run(["ip", "netns", "add", stale], check=True)
        self.addCleanup(subprocess.run, ["ip", "netns", "del", stale], capture_output=True)
        sleeper = subprocess.Popen(["ip", "netns", "exec", stale, "sleep", "300"])
        self.addCleanup(sleeper.kill)
        # Two runs at once, each with its own namespaces; either removes the stale one.
        first = Cluster(self, ["--hosts", "2"], ["bfs", "--scale", "10", "--roots", "4"])
        second = Cluster(self, ["--hosts", "3"], ["bfs", "--scale", "10", "--roots", "4"])
        self.assertEqual(first.wait(240), 0, first.err())
        self.assertEqual(second.wait(240), 0, second.err())
        self.assertIn("NBFS:                           4\n", first.out())
        self.assertIn("num_mpi_processes:              3\n", second.out())
        self.assertNotIn(stale, namespaces())
        self.assertEqual(sleeper.wait(timeout=10), -signal.SIGTERM)


if __name__ == "__main__":
    unittest.main(verbosity=2)
