"""End-to-end test of tcpu-board against a real OpenSSH server on a loopback port.

The "board" is this machine reached through sshd; its exec wrapper is the pinned
qemu-aarch64 at SVE VL 128 (the vl128 variant), and its sysfs is a fake tree, so the
governor can be changed and checked. Runs probe -> deploy -> bench -> compare -> report and
checks the atomic switch, the lock, the governor restore (also after SIGINT) and that an
unknown host key is refused.

Nothing here depends on how fast the machine is: where a test needs a benchmark to be
running (the lock, SIGINT), the board's exec wrapper (bench_gate.sh) holds it until the test
releases it, and every wait is for an event, with no deadline but Bazel's test timeout.

Last, `bench --serve` runs the aarch64 tcpu-serve on the board over the tiny checkpoint and
records 1 and 2 concurrent streams.

Usage: e2e_test.py --sshd P --ssh P --ssh-keygen P --qemu P --qemu-cpu CPU --benchmark P
                   --probe P --tool P --gate P --serve P --serve-model CONFIG_JSON
                   --serve-tokenizer TOKENIZER_JSON
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves it out.
from sshd_fixture import SshServer, free_port  # noqa: E402

ARGS = None
BENCH_FILTER = "BM_SdotPublic"


def allowed_cpus():
    return sorted(os.sched_getaffinity(0))


def make_fake_sysfs(root):
    """cpu_capacity, max frequency, MIDR and governor of a big.LITTLE board, shaped on the
    CPUs this test may use (so taskset to the "big" cluster works): the first allowed CPU is
    a Cortex-A520 little core, the others Cortex-A720 big cores."""
    cpus = allowed_cpus()
    base = os.path.join(root, "devices", "system", "cpu")
    os.makedirs(base)
    with open(os.path.join(base, "possible"), "w") as f:
        f.write(",".join(map(str, cpus)) + "\n")
    for index, cpu in enumerate(cpus):
        little = index == 0 and len(cpus) > 1
        folder = os.path.join(base, f"cpu{cpu}")
        os.makedirs(os.path.join(folder, "cpufreq"))
        os.makedirs(os.path.join(folder, "regs", "identification"))
        files = {
            "cpu_capacity": "446" if little else "1024",
            "cpufreq/cpuinfo_max_freq": "1800000" if little else "2600000",
            "cpufreq/scaling_governor": "schedutil",
            "regs/identification/midr_el1": "0x00000000410fd800" if little else
                                            "0x00000000410fd810",
        }
        for name, value in files.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(value + "\n")
    big = cpus[1:] if len(cpus) > 1 else cpus
    return big


def governor(sysfs, cpu):
    with open(os.path.join(sysfs, "devices/system/cpu", f"cpu{cpu}",
                           "cpufreq/scaling_governor")) as f:
        return f.read().strip()


def running_from(prefix):
    """Processes whose command line mentions `prefix` (the board's release folder)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if prefix.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            continue  # It ended while we looked.
    return found


def wait_until(condition, what, process=None):
    """Waits for `condition`, failing if `process` ends first. No deadline of its own: how
    long anything takes depends on the machine's load, so only Bazel's test timeout limits
    it."""
    while not condition():
        if process is not None and process.poll() is not None:
            _, stderr = process.communicate()
            raise AssertionError(f"the run ended (status {process.returncode}) before "
                                 f"{what}:\n{stderr}")
        time.sleep(0.05)


def read_stderr_until(process, text):
    """Reads `process`'s stderr line by line until a line contains `text`; returns the lines
    read. Fails if the process ends without printing it."""
    lines = []
    for line in process.stderr:
        lines.append(line)
        if text in line:
            return lines
    process.wait()
    raise AssertionError(f"the run ended (status {process.returncode}) without printing "
                         f"{text!r}:\n{''.join(lines)}")


class TcpuBoardEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="tcpu-board-e2e-",
                                   dir=os.environ.get("TEST_TMPDIR"))
        # The gate of bench_gate.sh: hold (armed while it exists), entered, release (a FIFO).
        cls.gate = os.path.join(cls.dir, "gate")
        os.makedirs(cls.gate)
        os.mkfifo(os.path.join(cls.gate, "release"))
        cls.server = SshServer(os.path.join(cls.dir, "sshd"), ARGS.sshd, ARGS.ssh_keygen)
        cls.server.start()
        cls.offline_port = free_port()
        cls.sysfs = os.path.join(cls.dir, "sysfs")
        cls.big = make_fake_sysfs(cls.sysfs)
        cls.work = os.path.join(cls.dir, "board")
        cls.results = os.path.join(cls.dir, "results")
        with open(os.path.join(cls.dir, "known_hosts"), "w") as f:
            f.write(cls.server.known_hosts_line() + "\n")
        with open(os.path.join(cls.dir, "ssh_config"), "w") as f:
            # Keeps the user's ~/.ssh/config out of the test. The test opens about 100
            # connections, and OpenSSH's default key exchange (sntrup761x25519) made them
            # cost 40% of its CPU time; which key exchange ssh negotiates is no part of
            # tcpu-board.
            f.write("KexAlgorithms curve25519-sha256\n")
        cls.inventory = os.path.join(cls.dir, "boards.toml")
        with open(cls.inventory, "w") as f:
            f.write(cls.inventory_text("known_hosts"))
        # The same board in an inventory whose known_hosts is empty.
        open(os.path.join(cls.dir, "empty_known_hosts"), "w").close()
        cls.strange_inventory = os.path.join(cls.dir, "strange.toml")
        with open(cls.strange_inventory, "w") as f:
            f.write(cls.inventory_text("empty_known_hosts"))
        cls.records = []

    @classmethod
    def inventory_text(cls, known_hosts):
        wrapper = json.dumps(["/bin/sh", ARGS.gate, cls.gate, ARGS.qemu, "-cpu", ARGS.qemu_cpu])
        return f"""# Written by e2e_test.py: this machine as an aarch64 board (through qemu).
[defaults]
known_hosts = "{known_hosts}"
ssh_command = ["{ARGS.ssh}"]
ssh_config = "ssh_config"

[boards.qemu-vl128]
ssh = "{cls.server.user}@127.0.0.1:{cls.server.port}"
identity_file = "{cls.server.user_key}"
work_dir = "{cls.work}"
may_set_governor = true
sysfs_root = "{cls.sysfs}"
exec_wrapper = {wrapper}
tags = ["qemu", "ci"]
# Loopback under any load: the test's only time limit is Bazel's.
connect_timeout = 3600
command_timeout = 86400

# Nothing listens on its port: a farm member that is down.
[boards.offline]
ssh = "{cls.server.user}@127.0.0.1:{cls.offline_port}"
identity_file = "{cls.server.user_key}"
work_dir = "{cls.work}-offline"
"""

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        with open(cls.server.log) as f:  # In test.log, for when a step failed.
            print("sshd log:\n" + f.read(), file=sys.stderr)
        if not os.environ.get("TCPU_BOARD_KEEP_TEST_DIR"):
            shutil.rmtree(cls.dir, ignore_errors=True)

    def tool(self, *args, inventory=None, check=None, background=False):
        argv = [sys.executable, "-I", "-S", ARGS.tool, "--inventory",
                inventory or self.inventory, "--workspace", os.getcwd(), *args]
        if background:
            return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
        result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        if check is not None:
            self.assertEqual(result.returncode, check,
                             f"tcpu-board {' '.join(args)}\nstdout:\n{result.stdout}\n"
                             f"stderr:\n{result.stderr}")
        return result

    def bench(self, *extra, boards="qemu-vl128", **kwargs):
        return self.tool("bench", boards, "--filter", BENCH_FILTER, "--min-time",
                         "0.01", "--results", self.results, *extra, **kwargs)

    def hold_next_benchmark(self):
        """The next benchmark started on the board waits in bench_gate.sh for release()."""
        entered = os.path.join(self.gate, "entered")
        if os.path.exists(entered):
            os.remove(entered)
        with open(os.path.join(self.gate, "hold"), "w") as f:
            f.write(os.path.basename(ARGS.benchmark))

    def wait_until_held(self, run):
        """Returns once the held benchmark of `run` is waiting on the board; later
        benchmarks run freely."""
        wait_until(lambda: os.path.exists(os.path.join(self.gate, "entered")),
                   "the benchmark reached the board", run)
        os.remove(os.path.join(self.gate, "hold"))

    def release(self):
        with open(os.path.join(self.gate, "release"), "w") as f:
            f.write("go\n")

    def current_release(self):
        return os.readlink(os.path.join(self.work, "current"))

    def test_1_probe(self):
        result = self.tool("probe", "qemu-vl128", check=0)
        self.assertIn("SVE vector length 128 bits", result.stdout)
        self.assertIn("sve2", result.stdout)
        cache = os.path.join(self.dir, ".tcpu-board", "qemu-vl128", "probe.json")
        with open(cache) as f:
            facts = json.load(f)
        self.assertEqual(facts["sve_vl_bits"], 128)
        self.assertEqual(facts["uname"]["machine"], "aarch64")
        self.assertIn("i8mm", facts["features2"])
        self.assertEqual(facts["fastest_cluster"], self.big)
        self.assertEqual({c["governor"] for c in facts["cpus"]}, {"schedutil"})
        parts = {c["id"]: c["midr_part"] for c in facts["cpus"]}
        self.assertEqual(parts[self.big[0]], 0xd81)
        self.assertGreater(facts["mem_total_kb"], 0)

    def test_2_deploy(self):
        result = self.tool("deploy", "qemu-vl128", "--prebuilt", ARGS.benchmark, check=0)
        self.assertIn("files sent", result.stdout)
        first = self.current_release()
        self.assertTrue(first.startswith("releases/"), first)
        program = os.path.basename(ARGS.benchmark)
        deployed = os.path.join(self.work, "current", "bin", program)
        with open(deployed, "rb") as a, open(ARGS.benchmark, "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.assertTrue(os.access(deployed, os.X_OK))
        # The same files again: nothing is sent, current stays.
        result = self.tool("deploy", "qemu-vl128", "--prebuilt", ARGS.benchmark, check=0)
        self.assertIn("unchanged", result.stdout)
        self.assertEqual(self.current_release(), first)
        # One more program: only it is sent; the benchmark is hard-linked from the last release.
        result = self.tool("deploy", "qemu-vl128", "--prebuilt", ARGS.benchmark,
                           "--prebuilt", ARGS.probe, check=0)
        self.assertIn("1 reused", result.stdout)
        second = self.current_release()
        self.assertNotEqual(second, first)
        old = os.stat(os.path.join(self.work, first, "bin", program))
        new = os.stat(os.path.join(self.work, second, "bin", program))
        self.assertEqual((old.st_dev, old.st_ino), (new.st_dev, new.st_ino))

    def test_3_interrupted_deploy_keeps_current(self):
        sys.path.insert(0, os.path.dirname(ARGS.tool))
        import board_inventory
        import release_deploy
        from ssh_transport import Ssh
        board = board_inventory.load(self.inventory).boards["qemu-vl128"]
        before = self.current_release()
        extra = os.path.join(self.dir, "model_notes.txt")
        with open(extra, "wb") as f:
            f.write(os.urandom(1 << 20))

        def interrupt(sent, total, path):
            raise KeyboardInterrupt  # Ctrl-C while the upload is under way.

        with self.assertRaises(KeyboardInterrupt):
            release_deploy.deploy(Ssh(board), [ARGS.benchmark, ARGS.probe, extra],
                                  progress=interrupt)
        self.assertEqual(self.current_release(), before)
        partial = [n for n in os.listdir(os.path.join(self.work, "releases"))
                   if n.endswith(".partial")]
        self.assertEqual(len(partial), 1, "the interrupted upload left its folder")
        verify = subprocess.run(["sha256sum", "-c", "--quiet", "MANIFEST.sha256"],
                                cwd=os.path.join(self.work, "current"))
        self.assertEqual(verify.returncode, 0, "the current release is intact")
        # The next deploy cleans up and switches.
        result = self.tool("deploy", "qemu-vl128", "--prebuilt", ARGS.benchmark,
                           "--prebuilt", ARGS.probe, "--prebuilt", extra, check=0)
        self.assertIn("2 reused", result.stdout)
        self.assertNotEqual(self.current_release(), before)
        self.assertFalse([n for n in os.listdir(os.path.join(self.work, "releases"))
                          if n.endswith(".partial")])

    def test_4_bench_lock_and_governor(self):
        self.hold_next_benchmark()
        first = self.bench("--repetitions", "3", background=True)
        self.wait_until_held(first)  # It holds the lock and the governor until release().
        self.assertEqual(governor(self.sysfs, self.big[0]), "performance")
        self.assertTrue(os.path.exists(os.path.join(self.work, "lock", "owner")))
        # A second bench on the locked board fails at once, naming the holder.
        second = self.bench()
        self.assertEqual(second.returncode, 1, second.stderr)
        self.assertIn("qemu-vl128: lock: the board is busy: locked by tcpu-board bench pid",
                      second.stderr)
        # A deploy waits for the bench too: it would prune the release in use.
        deploy = self.tool("deploy", "qemu-vl128", "--prebuilt", ARGS.benchmark)
        self.assertEqual(deploy.returncode, 1, deploy.stderr)
        self.assertIn("qemu-vl128: lock: the board is busy", deploy.stderr)
        # A third one waits for the board (--lock-wait) and runs after the first.
        third = self.bench("--lock-wait", "86400", background=True)
        read_stderr_until(third, "qemu-vl128: lock: waiting for the board (locked by "
                          "tcpu-board bench pid")
        self.release()
        stdout, stderr = first.communicate()
        self.assertEqual(first.returncode, 0, stderr)
        third_out, third_err = third.communicate()
        self.assertEqual(third.returncode, 0, third_err)
        self.assertIn("qemu-vl128: ok, record", third_out)
        self.assertEqual([governor(self.sysfs, c) for c in self.big],
                         ["schedutil"] * len(self.big))
        self.assertFalse(os.path.exists(os.path.join(self.work, "lock")))
        path = stdout.strip().split("record ")[-1]
        with open(path) as f:
            record = json.load(f)
        self.assertEqual(record["schema"], "tcpu-board-record/1")
        self.assertEqual(record["board"], "qemu-vl128")
        self.assertEqual(record["cores"], self.big)
        self.assertEqual(record["governor"]["set"], "performance")
        self.assertEqual(set(record["governor"]["before"].values()), {"schedutil"})
        self.assertEqual(record["probe"]["sve_vl_bits"], 128)
        self.assertIsNotNone(record["lockfile_digest"])
        self.assertTrue(record["toolchain"].startswith("clang-19 "), record["toolchain"])
        names = {b["name"] for b in record["benchmarks"]}
        self.assertTrue(names and all(n.startswith(BENCH_FILTER) for n in names), names)
        self.assertTrue(all(b["real_time"] > 0 for b in record["benchmarks"]))
        self.assertTrue(os.path.exists(os.path.join(
            self.work, "runs", record["run_id"], os.path.basename(ARGS.benchmark) + ".json")))
        TcpuBoardEndToEnd.records.append(path)

    def test_5_sigint_restores_governor(self):
        self.hold_next_benchmark()
        run = self.bench("--repetitions", "3", background=True)
        self.wait_until_held(run)  # Never released: SIGINT must stop it on the board.
        self.assertEqual(governor(self.sysfs, self.big[0]), "performance")
        releases = os.path.join(self.work, "releases") + "/"
        self.assertTrue(running_from(releases))
        run.send_signal(signal.SIGINT)
        _, stderr = run.communicate()
        self.assertEqual(run.returncode, 130, stderr)
        self.assertIn("interrupted", stderr)
        self.assertEqual([governor(self.sysfs, c) for c in self.big],
                         ["schedutil"] * len(self.big))
        self.assertFalse(os.path.exists(os.path.join(self.work, "lock")))
        # The benchmark on the board stopped with the connection.
        wait_until(lambda: not running_from(releases), "the remote benchmark stopped")

    def test_6_compare_and_report(self):
        # Two boards in parallel, the second one down: the first still runs, and the exit
        # code has bit 1 set for the second.
        result = self.bench("--repetitions", "2", boards="qemu-vl128,offline", check=2)
        self.assertIn("error: offline: probe: upload: unreachable: connection refused",
                      result.stderr)
        self.assertIn("failed boards: offline (exit code 2)", result.stderr)
        TcpuBoardEndToEnd.records.append(result.stdout.strip().split("record ")[-1])
        old, new = self.records[:2]
        same = self.tool("compare", old, old, "--threshold", "0%", check=0)
        self.assertIn(f"| qemu-vl128 | {os.path.basename(ARGS.benchmark)}/{BENCH_FILTER}",
                      same.stdout)
        self.assertIn("+0.0%", same.stdout)
        # Emulated times are noisy: a threshold no run exceeds passes, comparing directories.
        result = self.tool("compare", old, self.results, "--threshold", "100000%", check=0)
        self.assertNotIn("REGRESSION", result.stdout)
        report_dir = os.path.join(self.dir, "report")
        self.tool("report", self.results, "--out", report_dir, check=0)
        with open(os.path.join(report_dir, "report.md")) as f:
            text = f.read()
        self.assertIn("## qemu-vl128", text)
        self.assertIn("SVE VL 128 bits", text)
        self.assertIn("![qemu-vl128 over time](qemu-vl128.svg)", text)
        svg = ET.parse(os.path.join(report_dir, "qemu-vl128.svg")).getroot()
        circles = svg.findall(".//{http://www.w3.org/2000/svg}circle")
        benchmarks = text.count(f"| {os.path.basename(ARGS.benchmark)}/")
        runs = len(os.listdir(os.path.join(self.results, "qemu-vl128")))
        self.assertEqual(runs, 3)  # The first and the waiting bench of test 4, and this one.
        self.assertEqual(len(circles), runs * benchmarks)

    def test_7_unknown_host_key_refused(self):
        result = self.tool("probe", "qemu-vl128", inventory=self.strange_inventory)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("qemu-vl128: probe: upload: the host key of qemu-vl128 is not in",
                      result.stderr)
        with open(os.path.join(self.dir, "empty_known_hosts")) as f:
            self.assertEqual(f.read(), "", "the unknown key must not be learned")
        # A board that opts in to accept-new learns the key on first use, then pins it.
        trusting = os.path.join(self.dir, "trusting.toml")
        with open(trusting, "w") as f:
            f.write(self.inventory_text("learned_known_hosts").replace(
                'tags = ["qemu", "ci"]', 'tags = ["qemu", "ci"]\nhost_key_policy = "accept-new"'))
        self.tool("probe", "qemu-vl128", inventory=trusting, check=0)
        with open(os.path.join(self.dir, "learned_known_hosts")) as f:
            self.assertIn(self.server.host_public_key.split()[1], f.read())

    def test_8_missing_benchmark_and_bad_filter(self):
        result = self.bench("--programs", "no_such_benchmark")
        self.assertEqual(result.returncode, 1)
        self.assertIn("not deployed: no_such_benchmark", result.stderr)
        result = self.tool("bench", "qemu-vl128", "--filter", "^NoSuchBenchmark$",
                           "--results", self.results)
        self.assertEqual(result.returncode, 1)
        self.assertIn("no benchmark ran", result.stderr)

    def test_9_bench_serve(self):
        model = os.path.join(self.dir, "tiny_model")  # A checkpoint folder on the board.
        os.makedirs(model)
        checkpoint = os.path.dirname(ARGS.serve_model)
        for name in os.listdir(checkpoint):
            shutil.copy(os.path.join(checkpoint, name), model)
        shutil.copy(ARGS.serve_tokenizer, model)
        result = self.tool("bench", "qemu-vl128", "--serve")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("bench --serve needs --model", result.stderr)
        serve = ("bench", "qemu-vl128", "--serve", "--model", model, "--streams", "1,2",
                 "--max-tokens", "4", "--results", self.results)
        result = self.tool(*serve)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("not deployed: tcpu-serve", result.stderr)

        self.tool("deploy", "qemu-vl128", "--prebuilt", ARGS.serve, check=0)
        result = self.tool(*serve, check=0)
        path = result.stdout.strip().rsplit(" ", 1)[1]
        with open(path) as f:
            record = json.load(f)
        self.assertEqual(record["serve"]["streams"], [1, 2])
        self.assertEqual(record["governor"]["set"], "performance")
        for cpu in self.big:
            self.assertEqual(governor(self.sysfs, cpu), "schedutil")
        entries = {e["name"]: e for e in record["benchmarks"]}
        self.assertEqual(sorted(entries), [
            "serve/streams:1/stream_latency", "serve/streams:1/time_per_token",
            "serve/streams:2/stream_latency", "serve/streams:2/time_per_token"])
        for streams in (1, 2):
            per_token = entries[f"serve/streams:{streams}/time_per_token"]
            self.assertEqual(per_token["program"], "tcpu-serve")
            self.assertTrue(0 < per_token["generated_tokens"] <= 4 * streams, per_token)
            self.assertGreater(per_token["tokens_per_second"], 0)
            self.assertGreater(per_token["real_time"], 0)
            latency = entries[f"serve/streams:{streams}/stream_latency"]
            self.assertEqual(len(latency["latency_ns"]), streams)
            self.assertEqual(len(latency["first_token_ns"]), streams)
            self.assertTrue(all(0 < first <= end for first, end in
                                zip(latency["first_token_ns"], latency["latency_ns"])))
        # The server stops with its ssh connection.
        releases = os.path.join(self.work, "releases")
        wait_until(lambda: not running_from(releases), "tcpu-serve stopped")


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    paths = ("sshd", "ssh", "ssh-keygen", "qemu", "benchmark", "probe", "tool", "gate", "serve",
             "serve-model", "serve-tokenizer")
    for name in paths + ("qemu-cpu",):
        parser.add_argument("--" + name, required=True)
    ARGS, rest = parser.parse_known_args()
    for name in paths:
        attribute = name.replace("-", "_")
        setattr(ARGS, attribute, os.path.abspath(getattr(ARGS, attribute)))
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
