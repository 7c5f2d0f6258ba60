"""Unit tests of spdx_sbom.py's readers of what materialize.sh writes: the rows a package set was
made from (debian_packages.lock, with a pin the archive no longer served replaced) and the owner
and version of each file (debian_package_files.tsv); malformed input exits naming the line."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spdx_sbom  # noqa: E402

SHA_A = "a" * 64
SHA_B = "b" * 64


def write(folder, name, text):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


class ReadLockfileTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def test_rows_name_their_lockfile_and_the_pin_a_substitute_replaced(self):
        path = write(self.dir, "debian_packages.lock", "\n".join([
            "# The packages this repository was made from: ...",
            "# lockfile: toolchains/lockfiles/sysroot_x86_64.lock",
            "# substituted: linux-libc-dev 6.1.192-2 -> 6.1.192-3 (amd64)",
            "# name\tversion\tarch\tsha256\tfile",
            f"libc6-dev\t2.36-9+deb12u13\tamd64\t{SHA_A}\tlibc6-dev_2.36-9+deb12u13_amd64.deb",
            f"linux-libc-dev\t6.1.192-3\tamd64\t{SHA_B}\tlinux-libc-dev_6.1.192-3_amd64.deb",
        ]) + "\n")
        rows = {row["name"]: row for row in spdx_sbom.read_lockfile(path)}
        self.assertEqual(rows["libc6-dev"]["lockfile"], "toolchains/lockfiles/sysroot_x86_64.lock")
        self.assertIsNone(rows["libc6-dev"]["pinned"])
        self.assertEqual(rows["linux-libc-dev"]["version"], "6.1.192-3")
        self.assertEqual(rows["linux-libc-dev"]["sha256"], SHA_B)
        self.assertEqual(rows["linux-libc-dev"]["pinned"], "6.1.192-2")

    def test_a_malformed_substitution_line_is_named(self):
        path = write(self.dir, "debian_packages.lock",
                     "# substituted: linux-libc-dev 6.1.192-2 6.1.192-3\n"
                     f"linux-libc-dev\t6.1.192-3\tamd64\t{SHA_B}\tx.deb\n")
        with self.assertRaises(SystemExit) as caught:
            spdx_sbom.read_lockfile(path)
        self.assertIn(":1: expected '# substituted: NAME PINNED -> USED (ARCH)'", str(caught.exception))


class ReadOwnersTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def test_files_and_source_folders_by_package(self):
        path = write(self.dir, "external/sysroot_x86_64/debian_package_files.tsv",
                     "libc6-dev\t2.36-9+deb12u13\tusr/lib/x86_64-linux-gnu/libc.a\n"
                     "benchmark\t1.7.1-1\tsrc/benchmark/\n")
        owners, folders = spdx_sbom.read_owners([path])
        self.assertEqual(owners, {("sysroot_x86_64", "usr/lib/x86_64-linux-gnu/libc.a"): "libc6-dev"})
        self.assertEqual(folders, [("sysroot_x86_64", "src/benchmark/", "benchmark")])

    def test_a_row_without_its_version_is_named(self):
        path = write(self.dir, "external/sysroot_x86_64/debian_package_files.tsv",
                     "libc6-dev\tusr/lib/x86_64-linux-gnu/libc.a\n")
        with self.assertRaises(SystemExit) as caught:
            spdx_sbom.read_owners([path])
        self.assertIn("debian_package_files.tsv:1: expected PACKAGE<TAB>VERSION<TAB>PATH",
                      str(caught.exception))


if __name__ == "__main__":
    unittest.main()
