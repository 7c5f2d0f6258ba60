"""Splits the test suite into N deterministic shards balanced by recorded cost, and runs one.

  bazel run //tools/ci:shard -- list  --shards N --index I        # the shard's test labels
  bazel run //tools/ci:shard -- run   --shards N --index I [-- BAZEL_TEST_FLAGS...]
  bazel run //tools/ci:shard -- record                            # costs from bazel-testlogs
  bazel run //tools/ci:shard -- check --max-shards 8              # union/overlap self-check

The suite is what `bazel test //...` itself runs, read from the Build Event Protocol of
`bazel test --nobuild` over the same patterns (//... spelled per top-level folder): test_suites
expanded as Bazel expands them (a `manual` test listed in a suite runs), tags matched as whole
tags (`not-manual` is not `manual`), and tests incompatible with the platform left out (Bazel
skips them; named alone they would fail as "explicitly requested"). Each test costs its
recorded seconds (tools/ci/test_costs.tsv, written by `record` from the test.xml
files of a full run); a test without a record costs a default by kind, since emulated tests
dominate. Shards are filled longest-first, each test to the least loaded shard (ties to the
lowest index, equal costs in label order), so every machine computes the same split from the
same inputs, and no shard exceeds the ideal share by more than one test.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COSTS_FILE = "tools/ci/test_costs.tsv"
DEFAULT_COST_QEMU = 20.0  # seconds: an emulated test without a record
DEFAULT_COST_HOST = 5.0


def workspace():
    return os.environ.get("BUILD_WORKSPACE_DIRECTORY") or os.getcwd()


def universe():
    """//... spelled as its top-level folders: the same targets, but a Bazel with another
    output root (CI runners, tests) would otherwise walk the bazel-* convenience links."""
    root = workspace()

    def has_packages(folder):
        return any({"BUILD", "BUILD.bazel"} & set(files) for _, _, files in os.walk(folder))

    folders = sorted(
        name for name in os.listdir(root)
        if not name.startswith((".", "bazel-")) and not os.path.islink(os.path.join(root, name))
        and os.path.isdir(os.path.join(root, name)) and has_packages(os.path.join(root, name)))
    return ["//:all"] + [f"//{name}/..." for name in folders]


def read_build_events(path):
    """(tests, qemu): the tests a `bazel test` run with these events runs, and those of them
    tagged `qemu`, both sorted. Raises ValueError naming the target of a loading or analysis
    failure (a broken BUILD file must not shrink the suite silently)."""
    configured, skipped, failures, finished = {}, set(), [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            event = json.loads(line)
            kind, key = next(iter(event["id"].items()))
            if kind == "targetConfigured" and "testSize" in event.get("configured", {}):
                configured[key["label"]] = event["configured"].get("tag", [])
            elif kind == "buildFinished":
                finished = True
            aborted = event.get("aborted")
            if aborted is None:
                continue
            reason = aborted.get("reason", "")
            if reason == "SKIPPED":  # Incompatible with the target platform.
                skipped.add(key.get("label", ""))
            elif reason != "NO_BUILD":  # --nobuild reports every target so.
                where = key.get("label") or key.get("pattern") or kind
                failures.append(f"{where}: {reason} {aborted.get('description', '')}".strip())
    if failures:
        raise ValueError("bazel could not analyse the suite: " + "; ".join(failures))
    if not finished:
        raise ValueError(f"{path}: the build events end before buildFinished")
    tests = sorted(set(configured) - skipped)
    return tests, sorted(t for t in tests if "qemu" in configured[t])


def query_tests():
    """(the tests `bazel test //...` runs, the subset tagged qemu), both sorted: Bazel's own
    answer, from the build events of `bazel test --nobuild` (analysis only)."""
    command = [os.environ.get("BAZEL", "bazel"), "test", "--nobuild", "--noshow_progress"]
    with tempfile.TemporaryDirectory(prefix="shard-") as folder:
        events = os.path.join(folder, "events.json")
        # Without a build there is nothing to test, so Bazel's status is always 1 ("Unable to
        # run tests"); the events say whether the analysis itself succeeded.
        result = subprocess.run(command + [f"--build_event_json_file={events}", "--",
                                           *universe()],
                                cwd=workspace(), text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            return read_build_events(events)
        except (OSError, ValueError) as error:
            sys.exit(f"shard: {' '.join(command)} failed: {error}\n{result.stderr[-4000:]}")


def read_costs(path):
    costs = {}
    if not os.path.exists(path):
        return costs
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            try:
                costs[fields[0]] = float(fields[1])
            except (IndexError, ValueError):
                sys.exit(f"shard: {path}:{number}: expected LABEL<TAB>SECONDS, got {line!r}")
    return costs


def cost_of(label, costs, qemu):
    if label in costs:
        return costs[label]
    return DEFAULT_COST_QEMU if label in qemu else DEFAULT_COST_HOST


def split(tests, n, cost):
    """Longest-processing-time-first: deterministic for the same tests and costs."""
    if n < 1:
        sys.exit(f"shard: --shards must be at least 1, got {n}")
    shards = [[] for _ in range(n)]
    loads = [0.0] * n
    for label in sorted(tests, key=lambda t: (-cost(t), t)):
        index = min(range(n), key=lambda i: (loads[i], i))
        shards[index].append(label)
        loads[index] += cost(label)
    return [sorted(s) for s in shards], loads


def shard_of(args):
    tests, qemu = query_tests()
    costs = read_costs(os.path.join(workspace(), args.costs))
    shards, loads = split(tests, args.shards, lambda t: cost_of(t, costs, qemu))
    if not 0 <= args.index < args.shards:
        sys.exit(f"shard: --index must be in 0..{args.shards - 1}, got {args.index}")
    print(f"shard {args.index + 1}/{args.shards}: {len(shards[args.index])} of {len(tests)} "
          f"tests, estimated {loads[args.index]:.0f} s of {sum(loads):.0f} s", file=sys.stderr)
    return shards[args.index]


def command_list(args):
    print("\n".join(shard_of(args)))


def command_run(args):
    labels = shard_of(args)
    if not labels:
        print("shard: this shard has no tests", file=sys.stderr)
        return
    # Through tools/ci/bazel_ci, which adds the shared cache's flags from the environment
    # (TCPU_REMOTE_CACHE, TCPU_REMOTE_CACHE_READONLY) and runs $BAZEL or bazel. `--` ends the
    # flags: everything after it is a target (Bazel's own convention).
    command = [os.path.join(workspace(), "tools", "ci", "bazel_ci"), "test", *args.bazel_flags,
               "--", *labels]
    result = subprocess.run(command, cwd=workspace())
    if result.returncode != 0:
        sys.exit(f"shard: bazel_ci test failed with status {result.returncode}")


def command_record(args):
    """Seconds per test from the last run's test.xml files (bazel-testlogs)."""
    testlogs = args.testlogs or os.path.join(workspace(), "bazel-testlogs")
    tests, _ = query_tests()
    costs = read_costs(os.path.join(workspace(), args.costs))
    recorded = 0
    for label in tests:
        package, name = label[2:].split(":", 1)
        xml = os.path.join(testlogs, package, name, "test.xml")
        if not os.path.exists(xml):
            continue
        text = open(xml, encoding="utf-8", errors="replace").read()
        # Bazel's own wrapper records duration= (whole seconds of the test action);
        # GoogleTest's XML has time= on <testsuites>: take the larger of the two.
        seconds = [float(v) for v in re.findall(r'\b(?:duration|time)="([0-9.]+)"', text)]
        if seconds:
            costs[label] = max(seconds)
            recorded += 1
    with open(os.path.join(workspace(), args.costs), "w", encoding="utf-8") as out:
        out.write("# Seconds per test of a full `bazel test //...` (tools/ci/shard.py record);\n"
                  "# the shard balancer's weights. Unlisted tests get a default by kind.\n")
        for label in sorted(costs):
            out.write(f"{label}\t{costs[label]:.1f}\n")
    print(f"shard: recorded {recorded} of {len(tests)} tests into {args.costs}", file=sys.stderr)


def command_check(args):
    """Every N in 1..max: the shards cover the suite exactly once and are deterministic."""
    tests, qemu = query_tests()
    costs = read_costs(os.path.join(workspace(), args.costs))
    cost = lambda t: cost_of(t, costs, qemu)
    failures = 0
    for n in range(1, args.max_shards + 1):
        shards, loads = split(tests, n, cost)
        again, _ = split(list(reversed(tests)), n, cost)
        flat = [t for s in shards for t in s]
        problems = []
        if sorted(flat) != tests:
            problems.append(f"union has {len(set(flat))} of {len(tests)} tests")
        if len(flat) != len(set(flat)):
            problems.append(f"{len(flat) - len(set(flat))} tests in more than one shard")
        if again != shards:
            problems.append("the split depends on the order of the query's output")
        ideal = sum(loads) / n
        biggest = max((cost(t) for t in tests), default=0.0)
        if max(loads) > ideal + biggest + 1e-9:
            problems.append(f"largest shard {max(loads):.0f} s > ideal {ideal:.0f} s + {biggest:.0f} s")
        status = "FAIL: " + "; ".join(problems) if problems else "ok"
        failures += bool(problems)
        print(f"N={n}: {len(tests)} tests, shard sizes {[len(s) for s in shards]}, "
              f"estimated seconds {[round(l) for l in loads]}: {status}")
    if failures:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--costs", default=COSTS_FILE, help="recorded costs, workspace-relative")
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("list", "run"):
        sub = commands.add_parser(name)
        sub.add_argument("--shards", type=int, required=True)
        sub.add_argument("--index", type=int, required=True, help="0-based")
        if name == "run":
            sub.add_argument("bazel_flags", nargs="*", help="after --: flags of bazel test")
    record = commands.add_parser("record")
    record.add_argument("--testlogs", help="bazel-testlogs of the run (default: this tree's)")
    check = commands.add_parser("check")
    check.add_argument("--max-shards", type=int, default=8)
    args = parser.parse_args()
    {"list": command_list, "run": command_run, "record": command_record,
     "check": command_check}[args.command](args)


if __name__ == "__main__":
    main()
