"""The counting plugin counts exactly: count_probe runs an assembly loop of known length
(1 + 2n + 1 instructions) inside nested regions; every count is checked to the instruction."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import count  # noqa: E402
import perf_run  # noqa: E402

# Instructions a region adds around what it encloses: the call into the loop and back, and the
# markers' own (begin's block after its load is counted before the region opens; see
# count_plugin.c).
MARKER_OVERHEAD = 7


class CountPluginTest(unittest.TestCase):
    def count(self, iterations, variant="vl128"):
        runfiles = perf_run.Runfiles.from_environment()
        probe = runfiles.path("tcpu_sdk/tools/perf/tests/count_probe_aarch64/count_probe")
        return perf_run.run_counted(runfiles, probe, [str(iterations)], variant)

    def test_symbol_counts_are_exact(self):
        for n in (1000, 4321):
            counts = self.count(n)
            symbols = dict(counts.symbols)
            self.assertEqual(symbols["tcpu_count_probe_loop"], 3 * (2 * n + 2) + 4)
            self.assertEqual(symbols["tcpu_perf_region_begin"], 3 * 3)
            self.assertEqual(symbols["tcpu_perf_region_end"], 3 * 3)
            self.assertEqual(counts.total, sum(symbols.values()))
            self.assertEqual(counts.errors, [])

    def test_regions_nest_and_count_their_thread(self):
        n = 1000
        loop = 2 * n + 2
        counts = self.count(n)
        self.assertEqual(list(counts.regions), ["loop", "outer"])
        inner = counts.regions["loop"]
        self.assertEqual((inner.calls, inner.min, inner.max), (2, loop + MARKER_OVERHEAD,
                                                               loop + MARKER_OVERHEAD))
        self.assertEqual(inner.instructions, 2 * (loop + MARKER_OVERHEAD))
        outer = counts.regions["outer"]
        self.assertEqual(outer.calls, 1)
        # Its own loop with its call (mov, bl), the inner region with the call of its begin
        # marker (mov, bl and the marker's 3 instructions), and the call of its own end marker.
        self.assertEqual(outer.instructions, (loop + 2) + (2 + 3) + inner.max + (2 + 3))

    def test_blocks_say_where_the_instructions_go(self):
        # The loop's blocks: its entry (mov, subs, b.ne), the loop back to its second
        # instruction (subs, b.ne: n - 1 times a call) and ret; three calls of n iterations and
        # one of 1. Every block is somewhere, so the blocks add up to the total.
        n = 1000
        runfiles = perf_run.Runfiles.from_environment()
        probe = runfiles.path("tcpu_sdk/tools/perf/tests/count_probe_aarch64/count_probe")
        counts = perf_run.run_counted(runfiles, probe, [str(n)], "vl128", blocks=True)
        self.assertEqual(counts.errors, [])
        loop = {b.offset: b for b in counts.blocks if b.symbol == "tcpu_count_probe_loop"}
        self.assertEqual(sorted(loop), [0, 4, 12])
        self.assertEqual((loop[0].length, loop[0].executions), (3, 4))
        self.assertEqual((loop[4].length, loop[4].executions), (2, 3 * (n - 1)))
        self.assertEqual((loop[12].length, loop[12].executions), (1, 4))
        self.assertIs(counts.blocks[0], loop[4])
        self.assertEqual(sum(b.instructions for b in loop.values()),
                         dict(counts.symbols)["tcpu_count_probe_loop"])
        self.assertEqual(sum(b.instructions for b in counts.blocks), counts.total)
        # Without blocks=True the plugin lists none.
        self.assertIsNone(self.count(n).blocks)

    def test_counts_do_not_depend_on_the_variant(self):
        # Scalar code executes the same instructions on every CPU model.
        base = self.count(500, "vl128").regions["loop"].instructions
        for variant in ("vl2048", "nosve", "a53"):
            self.assertEqual(self.count(500, variant).regions["loop"].instructions, base)

    def parallel(self, threads, units, iterations, regions):
        runfiles = perf_run.Runfiles.from_environment()
        probe = runfiles.path("tcpu_sdk/tools/perf/tests/parallel_probe_aarch64/parallel_probe")
        counts = perf_run.run_counted(runfiles, probe, [str(units), str(iterations),
                                                        str(regions)], "vl128",
                                      env={"TCPU_NUM_THREADS": str(threads)})
        self.assertEqual(counts.errors, [])
        return counts

    def test_parallel_balance_of_even_shares_is_one(self):
        n, loop = 5000, 2 * 5000 + 2
        counts = self.parallel(threads=4, units=8, iterations=n, regions=3)
        p = counts.regions["step"].parallel
        self.assertEqual((p.groups, p.shares), (3, 12))
        self.assertEqual(p.balance, 1.0)  # equal ranges run identical instructions
        self.assertGreaterEqual(p.work, 3 * 8 * loop)
        self.assertLess(p.work, 3 * 8 * (loop + 40))
        # The step's own loop, and the pool's start and each region's posting around it; never
        # the caller's wait, whose length depends on the host's scheduling.
        self.assertGreaterEqual(p.serial, loop)
        self.assertLess(p.serial, loop + 100000)
        shares = counts.regions["tcpu.parallel_for.share"]
        self.assertEqual(shares.calls, 12)
        self.assertEqual(counts.regions["tcpu.parallel_for"].parallel.groups, 3)

    def test_parallel_balance_sees_the_busiest_share(self):
        n = 20000
        # 5 units on 4 workers: one worker runs 2, the mean is 5/4: 2 / 1.25 = 1.6.
        p = self.parallel(threads=4, units=5, iterations=n, regions=2).regions["step"].parallel
        self.assertEqual((p.groups, p.shares), (2, 8))
        self.assertAlmostEqual(p.balance, 1.6, delta=0.002)
        # 2 units on 4 workers: two idle workers count, as idle cores do: 1 / 0.5 = 2.
        p = self.parallel(threads=4, units=2, iterations=n, regions=1).regions["step"].parallel
        self.assertAlmostEqual(p.balance, 2.0, delta=0.002)

    def test_one_thread_runs_no_parallel_region(self):
        counts = self.parallel(threads=1, units=8, iterations=100, regions=2)
        self.assertIsNone(counts.regions["step"].parallel)
        self.assertNotIn("tcpu.parallel_for", counts.regions)

    def test_a_failing_program_is_an_error(self):
        runfiles = perf_run.Runfiles.from_environment()
        probe = runfiles.path("tcpu_sdk/tools/perf/tests/count_probe_aarch64/count_probe")
        with self.assertRaisesRegex(perf_run.PerfError, "exited with 2"):
            perf_run.run_counted(runfiles, probe, ["0"], "vl128")


class MissingProgramTest(unittest.TestCase):
    """count names where a program is when bazel-bin points at another build's output tree."""

    def test_names_the_output_trees_that_hold_it(self):
        with tempfile.TemporaryDirectory() as workspace:
            for tree in ("k8-fastbuild", "k8-opt"):
                os.makedirs(os.path.join(workspace, "bazel-out", tree, "bin", "kernels"))
            with open(os.path.join(workspace, "bazel-out", "k8-opt", "bin", "kernels", "prog"),
                      "w"):
                pass
            os.symlink(os.path.join(workspace, "bazel-out", "k8-fastbuild", "bin"),
                       os.path.join(workspace, "bazel-bin"))
            message = count.missing_program_message(workspace, "bazel-bin/kernels/prog")
            self.assertIn("no such program: bazel-bin/kernels/prog", message)
            self.assertIn("now bazel-out/k8-fastbuild/bin", message)
            self.assertIn("bazel run -c opt //tools/perf:count", message)
            self.assertIn("the program is at bazel-out/k8-opt/bin/kernels/prog", message)
            # Elsewhere than bazel-bin: only that it is missing.
            self.assertEqual(count.missing_program_message(workspace, "out/prog"),
                             "no such program: out/prog")


if __name__ == "__main__":
    unittest.main()
