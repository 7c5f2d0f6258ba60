"""Unit tests of `tcpu-board compare`: medians, units, thresholds and the regression gate."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import compare_runs  # noqa: E402
import tcpu_board  # noqa: E402
from record_factory import entry, record  # noqa: E402
from result_records import benchmark_times  # noqa: E402


class CompareTest(unittest.TestCase):
    def write(self, folder, name, value):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(value, f)
        return path

    def test_threshold_parsing(self):
        self.assertAlmostEqual(compare_runs.parse_threshold("3%"), 0.03)
        self.assertAlmostEqual(compare_runs.parse_threshold("0.5"), 0.005)
        for bad in ("-1%", "three", "3%%", ""):
            with self.assertRaisesRegex(ValueError, "is not a percentage"):
                compare_runs.parse_threshold(bad)

    def test_median_of_repetitions_and_units(self):
        times = benchmark_times(record("b", "t", [
            entry("BM_A", 1.0, "us"), entry("BM_A", 3.0, "us"),
            entry("BM_A", 2.5, "us", "aggregate", "mean"),
            entry("BM_A", 2.0, "us", "aggregate", "median"),
            entry("BM_B", 4.0, "ms"), entry("BM_B", 6.0, "ms"),
        ]))
        self.assertEqual(times[("gemv_benchmark", "BM_A")], 2000.0)  # the median, in ns
        self.assertEqual(times[("gemv_benchmark", "BM_B")], 5e6)     # mean of iterations

    def test_errored_runs_left_out(self):
        bad = dict(entry("BM_A", 1.0), error_occurred=True)
        self.assertEqual(benchmark_times(record("b", "t", [bad])), {})

    def test_deltas_and_gate(self):
        old = record("orion", "2026-01-01T00:00:00Z", [
            entry("BM_A", 100.0), entry("BM_B", 100.0), entry("BM_C", 100.0),
            entry("BM_Gone", 5.0)])
        new = record("orion", "2026-01-02T00:00:00Z", [
            entry("BM_A", 102.0), entry("BM_B", 110.0), entry("BM_C", 80.0),
            entry("BM_New", 7.0)])
        rows = {d.benchmark: d for d in compare_runs.deltas([old], [new])}
        self.assertAlmostEqual(rows["BM_A"].change, 0.02)
        self.assertAlmostEqual(rows["BM_B"].change, 0.10)
        self.assertAlmostEqual(rows["BM_C"].change, -0.20)
        self.assertIsNone(rows["BM_Gone"].change)
        self.assertIsNone(rows["BM_New"].change)
        threshold = 0.03
        self.assertEqual([n for n, d in rows.items() if compare_runs.is_regression(d, threshold)],
                         ["BM_B"])
        text = compare_runs.table(list(rows.values()), threshold)
        self.assertIn("| orion | gemv_benchmark/BM_B | 100 ns | 110 ns | +10.0% | "
                      "**REGRESSION** |", text)
        self.assertIn("| -20.0% | faster |", text)
        self.assertIn("only in old", text)
        self.assertIn("only in new", text)

    def test_cli_exit_codes_and_directories(self):
        folder = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        old = self.write(folder, "old/orion/1.json",
                         record("orion", "2026-01-01T00:00:00Z", [entry("BM_A", 100.0)]))
        # A directory compares the newest record of each board in it.
        self.write(folder, "new/orion/1.json",
                   record("orion", "2026-01-02T00:00:00Z", [entry("BM_A", 500.0)]))
        self.write(folder, "new/orion/2.json",
                   record("orion", "2026-01-03T00:00:00Z", [entry("BM_A", 104.0)]))
        self.write(folder, "new/orion/probe.json", {"not": "a record"})
        new = os.path.join(folder, "new")
        self.assertEqual(tcpu_board.main(["compare", old, new, "--threshold", "5%"]), 0)
        self.assertEqual(tcpu_board.main(["compare", old, new, "--threshold", "3%"]), 1)
        self.assertEqual(tcpu_board.main(["compare", old, new, "--threshold", "x"]), 2)
        self.assertEqual(tcpu_board.main(["compare", old, os.path.join(folder, "none")]), 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
