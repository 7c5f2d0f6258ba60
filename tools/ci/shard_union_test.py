"""shard.py against Bazel itself, in a fixture workspace.

The fixture (shard_fixture/) holds each way a hand-made test list can disagree with
`bazel test //...`: a manual test in a non-manual test_suite (runs), a manual test only in a
manual suite (does not), a tag that merely contains `manual` or `qemu`, and a test that is
incompatible with every platform (skipped). The test runs the real `bazel test //...` there
and checks that the union of the shards is exactly the set of tests it ran, for N = 1..3,
with no overlap, and that every shard runs green when named on the command line.

Usage: shard_union_test.py --shard P --fixture P  (P: the fixture's BUILD.fixture)
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = None


def sdk_root():
    """The source tree, for the rules_cc / remote_coverage_tools shims the fixture needs."""
    readme = os.path.join(os.environ["TEST_SRCDIR"], "tcpu_sdk", "README.md")
    return os.path.dirname(os.path.realpath(readme))


def tests_run(events_path):
    """The labels of the tests a `bazel test` run executed, from its build events."""
    ran = set()
    with open(events_path, encoding="utf-8") as f:
        for line in f:
            event = json.loads(line)
            kind, key = next(iter(event["id"].items()))
            if kind == "testResult":
                ran.add(key["label"])
    return ran


class ShardsEqualBazelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="shard-union-", dir=os.environ.get("TEST_TMPDIR"))
        cls.workspace = os.path.join(cls.tmp, "fixture")
        shutil.copytree(os.path.dirname(ARGS.fixture), cls.workspace)
        for folder, _, files in os.walk(cls.workspace):
            if "BUILD.fixture" in files:
                os.rename(os.path.join(folder, "BUILD.fixture"), os.path.join(folder, "BUILD"))
        sdk = sdk_root()
        with open(os.path.join(cls.workspace, "WORKSPACE"), "w") as f:
            f.write('workspace(name = "shard_fixture")\n')
            for name, path in [("platforms", "/usr/share/bazel/tools/platforms"),
                               ("rules_java", "/usr/share/bazel/rules/java"),
                               ("rules_cc", f"{sdk}/third_party/rules_cc"),
                               ("remote_coverage_tools",
                                f"{sdk}/third_party/remote_coverage_tools")]:
                f.write(f'local_repository(name = "{name}", path = "{path}")\n')
        with open(os.path.join(cls.workspace, ".bazelrc"), "w") as f:
            f.write("build --nosandbox_debug\n"
                    # A server that lives for a dozen short commands: the JIT's optimising
                    # tier costs more CPU than it saves (about 10 s of CPU down to 6).
                    "startup --host_jvm_args=-XX:TieredStopAtLevel=1\n"
                    # The fixture's tests only `exit 0`: no sandbox to set up for each.
                    "test --strategy=TestRunner=local\n")
        # One Bazel server of the test's own (its output root under TEST_TMPDIR) for every
        # command, shut down at the end.
        cls.bazel = os.path.join(cls.tmp, "bazel")
        with open(cls.bazel, "w") as f:
            f.write("#!/bin/sh\nexec %s --output_user_root=%s \"$@\"\n"
                    % (shutil.which("bazel"), os.path.join(cls.tmp, "root")))
        os.chmod(cls.bazel, 0o755)
        events = os.path.join(cls.tmp, "run.json")
        result = cls.run_bazel("test", "//...", f"--build_event_json_file={events}")
        if result.returncode != 0:
            raise AssertionError(f"bazel test //... failed in the fixture:\n{result.stderr}")
        cls.ran = tests_run(events)
        cls.shards = {n: [cls.shard("list", "--shards", str(n), "--index", str(i)).split()
                          for i in range(n)] for n in (1, 2, 3)}

    @classmethod
    def tearDownClass(cls):
        cls.run_bazel("shutdown")
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def run_bazel(cls, *args):
        return subprocess.run([cls.bazel, *args], cwd=cls.workspace, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    @classmethod
    def shard(cls, *args):
        env = dict(os.environ, BAZEL=cls.bazel, BUILD_WORKSPACE_DIRECTORY=cls.workspace)
        result = subprocess.run([sys.executable, "-B", "-I", "-S", ARGS.shard, *args],
                                cwd=cls.workspace, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if result.returncode != 0:
            raise AssertionError(f"shard.py {' '.join(args)} failed:\n{result.stderr}")
        return result.stdout

    def test_the_fixture_exercises_every_case(self):
        self.assertEqual(self.ran, {"//:root_test", "//pkg:plain_test", "//pkg:qemu_tagged_test",
                                    "//pkg:manual_in_suite_test", "//pkg:not_manual_tag_test"})

    def test_union_of_shards_is_what_bazel_test_runs(self):
        for n, shards in self.shards.items():
            union = [label for shard in shards for label in shard]
            self.assertEqual(len(union), len(set(union)), f"N={n}: a test in two shards")
            self.assertEqual(set(union), self.ran, f"N={n}")

    def test_manual_test_in_a_suite_is_sharded(self):
        self.assertIn("//pkg:manual_in_suite_test", self.shards[1][0])
        self.assertNotIn("//pkg:manual_alone_test", self.shards[1][0])

    def test_tags_match_whole_words(self):
        self.assertIn("//pkg:not_manual_tag_test", self.shards[1][0])
        sys.path.insert(0, os.path.dirname(ARGS.shard))
        import shard  # noqa: E402 (the module under test, for its qemu classification)
        events = os.path.join(self.tmp, "nobuild.json")
        self.run_bazel("test", "--nobuild", f"--build_event_json_file={events}", "//...")
        tests, qemu = shard.read_build_events(events)
        self.assertEqual(set(tests), self.ran)
        self.assertEqual(qemu, ["//pkg:qemu_tagged_test"])

    def test_incompatible_test_is_left_out_and_every_shard_runs(self):
        self.assertNotIn("//pkg:incompatible_test", self.shards[1][0])
        for shard in self.shards[2]:
            result = self.run_bazel("test", "--", *shard)
            self.assertEqual(result.returncode, 0, f"bazel test -- {shard}:\n{result.stderr}")

    def test_check_command(self):
        self.assertIn("N=4: 5 tests", self.shard("check", "--max-shards", "4"))


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    for name in ("shard", "fixture"):
        parser.add_argument("--" + name, required=True)
    ARGS, rest = parser.parse_known_args()
    ARGS.shard = os.path.abspath(ARGS.shard)
    ARGS.fixture = os.path.abspath(ARGS.fixture)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
