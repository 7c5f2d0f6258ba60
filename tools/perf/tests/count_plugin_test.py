"""The counting plugin counts exactly: count_probe runs an assembly loop of known length
(1 + 2n + 1 instructions) inside nested regions; every count is checked to the instruction."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
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

    def test_counts_do_not_depend_on_the_variant(self):
        # Scalar code executes the same instructions on every CPU model.
        base = self.count(500, "vl128").regions["loop"].instructions
        for variant in ("vl2048", "nosve", "a53"):
            self.assertEqual(self.count(500, variant).regions["loop"].instructions, base)

    def test_a_failing_program_is_an_error(self):
        runfiles = perf_run.Runfiles.from_environment()
        probe = runfiles.path("tcpu_sdk/tools/perf/tests/count_probe_aarch64/count_probe")
        with self.assertRaisesRegex(perf_run.PerfError, "exited with 2"):
            perf_run.run_counted(runfiles, probe, ["0"], "vl128")


if __name__ == "__main__":
    unittest.main()
