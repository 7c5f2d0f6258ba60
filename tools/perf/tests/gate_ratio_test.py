"""gate.py's ratios: "A <= X * B" holds region A's count to at most X times region B's in every
variant of the same run. Parsing and checking on made-up counts (the probe gates in BUILD.bazel
run it on real ones)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gate  # noqa: E402
import perf_run  # noqa: E402

STREAMS = "streams=8 int8 <= 0.5 * streams=1 int8"


class ParseRatioTest(unittest.TestCase):
    def test_region_names_may_hold_spaces_and_equals(self):
        self.assertEqual(gate.parse_ratio(STREAMS), ("streams=8 int8", 0.5, "streams=1 int8"))

    def test_integer_limit(self):
        self.assertEqual(gate.parse_ratio("loop <= 1 * outer"), ("loop", 1.0, "outer"))

    def test_malformed_specs_name_the_expected_form(self):
        for spec in ("loop < 0.5 * outer", "loop <= outer", "loop <= 0.5 outer",
                     "<= 0.5 * outer", "loop <= -1 * outer", "loop <= 0.5 * "):
            with self.subTest(spec=spec):
                with self.assertRaisesRegex(perf_run.PerfError,
                                            "expected 'REGION <= LIMIT \\* REGION'"):
                    gate.parse_ratio(spec)


class CheckRatiosTest(unittest.TestCase):
    def test_a_ratio_under_its_limit_passes_and_is_reported(self):
        failures, lines = gate.check_ratios(
            [STREAMS], {"vl128": {"streams=1 int8": 1000, "streams=8 int8": 464}})
        self.assertEqual(failures, [])
        self.assertEqual(lines, ["vl128: 'streams=8 int8' / 'streams=1 int8' = 464 / 1000 = "
                                 "0.4640 (at most 0.5)"])

    def test_exactly_the_limit_passes(self):
        failures, _ = gate.check_ratios(
            [STREAMS], {"vl128": {"streams=1 int8": 1000, "streams=8 int8": 500}})
        self.assertEqual(failures, [])

    def test_over_the_limit_fails_naming_both_counts(self):
        failures, lines = gate.check_ratios(
            [STREAMS], {"vl128": {"streams=1 int8": 1000, "streams=8 int8": 501}})
        self.assertEqual(lines, [])
        self.assertEqual(failures, ["vl128: 'streams=8 int8' / 'streams=1 int8' = 501 / 1000 "
                                    "= 0.5010, over the limit of 0.5"])

    def test_every_variant_is_held(self):
        failures, lines = gate.check_ratios(["a <= 0.5 * b"], {
            "vl128": {"a": 40, "b": 100},
            "nosve": {"a": 60, "b": 100},
        })
        self.assertEqual(len(lines), 1)
        self.assertEqual(len(failures), 1)
        self.assertTrue(failures[0].startswith("nosve: 'a' / 'b' = 60 / 100"), failures)

    def test_a_region_not_measured_fails(self):
        failures, _ = gate.check_ratios(["a <= 0.5 * b"], {"vl128": {"a": 1}})
        self.assertEqual(failures, ["vl128: ratio 'a <= 0.5 * b': region 'b' was not measured"])

    def test_a_denominator_of_zero_fails(self):
        failures, _ = gate.check_ratios(["a <= 0.5 * b"], {"vl128": {"a": 1, "b": 0}})
        self.assertEqual(failures, ["vl128: ratio 'a <= 0.5 * b': 'b' counted 0 instructions"])

    def test_no_ratios_check_nothing(self):
        self.assertEqual(gate.check_ratios([], {"vl128": {"a": 1}}), ([], []))


if __name__ == "__main__":
    unittest.main()
