"""Unit tests of `tcpu-board report`: the Markdown summary and the SVG plots."""

import json
import os
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import history_report  # noqa: E402
from record_factory import entry, record  # noqa: E402
from result_records import RecordError  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        runs = [("orion", "2026-01-01T00:00:00Z", 200.0, 50.0),
                ("orion", "2026-01-02T00:00:00Z", 190.0, 50.0),
                ("orion", "2026-01-03T00:00:00Z", 210.0, 55.0),
                ("rock<5>", "2026-01-02T00:00:00Z", 400.0, 90.0)]
        for board, stamp, a, b in runs:
            path = os.path.join(self.folder, board, stamp + ".json")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                json.dump(record(board, stamp, [entry("BM_Gemv/1536", a, "us"),
                                                entry("BM_Pack", b, "ms", program="pack")]), f)

    def test_markdown_and_svg(self):
        out = os.path.join(self.folder, "out")
        paths = history_report.write_report(self.folder, out)
        self.assertEqual(sorted(os.path.basename(p) for p in paths),
                         ["orion.svg", "report.md", "rock<5>.svg"])
        with open(os.path.join(out, "report.md")) as f:
            text = f.read()
        self.assertIn("4 runs on 2 board(s), 2026-01-01T00:00:00Z to 2026-01-03T00:00:00Z", text)
        # Latest 210 us against 190 us: +10.5 %; the best of the three is 190 us.
        self.assertIn("| gemv_benchmark/BM_Gemv/1536 | 210 us | 190 us | +10.5% | 190 us | 3 |",
                      text)
        self.assertIn("| pack/BM_Pack | 55 ms | 50 ms | +10.0% | 50 ms | 3 |", text)
        self.assertIn("SVE VL 128 bits", text)
        self.assertIn("![orion over time](orion.svg)", text)
        svg = ET.parse(os.path.join(out, "orion.svg")).getroot()
        self.assertEqual(svg.tag, SVG + "svg")
        self.assertEqual(len(svg.findall(f".//{SVG}polyline")), 2)
        self.assertEqual(len(svg.findall(f".//{SVG}circle")), 6)
        # The slowest run of a panel is drawn at its top, the fastest at its bottom.
        points = svg.findall(f".//{SVG}polyline")[0].get("points").split()
        ys = [float(p.split(",")[1]) for p in points]
        self.assertEqual(ys.index(min(ys)), 2)
        self.assertEqual(ys.index(max(ys)), 1)
        # Names are escaped: the SVG of "rock<5>" still parses.
        rock = ET.parse(os.path.join(out, "rock<5>.svg")).getroot()
        self.assertIn("rock<5>", "".join(rock.itertext()))
        self.assertEqual(len(rock.findall(f".//{SVG}circle")), 2)

    def test_empty_directory(self):
        empty = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        with self.assertRaisesRegex(RecordError, "no run records"):
            history_report.write_report(empty)


if __name__ == "__main__":
    unittest.main(verbosity=2)
