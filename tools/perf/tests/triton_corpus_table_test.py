"""triton_corpus_table.py's clang peers: `peer` lines of corpus_peers matched with the plugin's
regions, and the two cells they give (made-up counts)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import perf_run  # noqa: E402
import triton_corpus_table  # noqa: E402


class Region:
    def __init__(self, instructions):
        self.instructions = instructions


STDOUT = """work "clang -O3 launch 0031" 49152 elements
peer "triton launch 0031" clang "clang -O3 launch 0031"
work "clang -O3 launch 0188" 64 elements
peer "triton launch 0188" clang "clang -O3 launch 0188"
corpus_peers: 2 of 2 peers agree with the GPU
"""


class ClangPeersTest(unittest.TestCase):
    def test_each_peer_line_gives_its_regions_instructions(self):
        regions = {"clang -O3 launch 0031": Region(1000), "clang -O3 launch 0188": Region(64)}
        self.assertEqual(triton_corpus_table.clang_peers(STDOUT, regions),
                         {"0031": 1000, "0188": 64})

    def test_a_peer_line_naming_an_uncounted_region_stops_the_table(self):
        with self.assertRaisesRegex(perf_run.PerfError, "launch 0188: .*'clang -O3 launch 0188'"):
            triton_corpus_table.clang_peers(STDOUT, {"clang -O3 launch 0031": Region(1)})

    def test_two_peers_of_one_launch_stop_the_table(self):
        twice = STDOUT + 'peer "triton launch 0031" clang "clang -O3 launch 0188"\n'
        regions = {"clang -O3 launch 0031": Region(1), "clang -O3 launch 0188": Region(1)}
        with self.assertRaisesRegex(perf_run.PerfError, "launch 0031 has two clang peers"):
            triton_corpus_table.clang_peers(twice, regions)

    def test_cells_per_element_written_and_ratio(self):
        self.assertEqual(triton_corpus_table.peer_cells(3000, 1000, 2000), "2.00 | 1.50x")
        self.assertEqual(triton_corpus_table.peer_cells(3000, 1000, None), "– | –")


if __name__ == "__main__":
    unittest.main()
