"""Instruction-count and llvm-mca regression gates (defs.bzl writes the manifest).

  gate.py --manifest M --check    compare every gate of M with its checked-in baseline
  gate.py --manifest M --update   rewrite the baselines in the source tree (bazel run)

A count gate runs its program in each variant with the counting plugin and compares every
region's instructions; an mca gate compares llvm-mca's cycles per iteration of marked loops
on each CPU model. A rise over the tolerance fails, and so does a region or loop the baseline
does not know or no longer sees. A drop passes with a note (update the baseline to keep it).
A count gate may also hold ratios between two of its regions, measured in the same run
("A <= 0.5 * B": region A's instructions at most half of region B's, in every variant); they
do not depend on the baseline, and update never relaxes them.
"""

import argparse
import json
import os
import re
import subprocess
import sys

import perf_run


# The thread pool's region around a parallel_for on its calling thread (count_plugin.c).
PARALLEL_REGION = "tcpu.parallel_for"


def measure_counts(runfiles, gate):
    program = runfiles.path(gate["program"])
    measured = {}
    for variant in gate["variants"]:
        counts = perf_run.run_counted(runfiles, program, gate["args"], variant,
                                      stdout=subprocess.DEVNULL)
        if counts.errors:
            raise perf_run.PerfError(f"{gate['name']} ({variant}): " + "; ".join(counts.errors))
        if not counts.regions:
            raise perf_run.PerfError(f"{gate['name']} ({variant}): the program marked no region")
        # A region that ran on several threads counts their work (perf_run.Region), not the
        # calling thread's wait for its workers, and the pool's own region around each
        # parallel_for (that wait itself) is left out: both depend on the scheduling.
        measured[variant] = {name: r.work_instructions for name, r in counts.regions.items()
                             if name != PARALLEL_REGION}
    return measured


def loop_body(asm_path, loop):
    """The instructions of the innermost loop holding the marker "tcpu-mca-loop LOOP" (the
    same extraction as kernels/gemv/mca.sh: from the loop's label to the branch back)."""
    with open(asm_path) as f:
        lines = f.read().splitlines()
    label_re = re.compile(r"^\.?L[A-Za-z0-9_$.]*:")
    label, start = None, None
    for i, line in enumerate(lines):
        if label_re.match(line):
            label, start = line.split(":")[0], i
        if f"tcpu-mca-loop {loop}" in line:
            break
    else:
        raise perf_run.PerfError(f"loop '{loop}' not found in {asm_path}")
    body = []
    for line in lines[start + 1:]:
        stripped = line.split("//")[0].strip()
        if not stripped or label_re.match(stripped) or stripped.startswith("."):
            continue
        body.append(stripped)
        if re.match(r"^b", stripped) and stripped.split()[-1] == label:
            return body
    raise perf_run.PerfError(f"loop '{loop}' in {asm_path}: no branch back to {label}")


def mca_cycles(runfiles, body, cpu, loop):
    """llvm-mca's cycles per iteration of `body` (a loop_body list) on -mcpu=`cpu`."""
    mca = runfiles.path("llvm_toolchain/bin/llvm-mca")
    result = subprocess.run([mca, "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=1000"],
                            input="\n".join(body) + "\n", capture_output=True, text=True,
                            check=False)
    match = re.search(r"^Total Cycles:\s+(\d+)", result.stdout, re.M)
    if result.returncode != 0 or not match:
        raise perf_run.PerfError(f"llvm-mca -mcpu={cpu} failed on {loop}: "
                                 f"{result.stderr.strip()}")
    return int(match.group(1)) / 1000.0


def measure_mca(runfiles, gate):
    measured = {}
    for entry in gate["loops"]:
        body = loop_body(runfiles.path(entry["asm"]), entry["loop"])
        for cpu in gate["cpus"]:
            measured.setdefault(cpu, {})[entry["loop"]] = mca_cycles(runfiles, body, cpu,
                                                                     entry["loop"])
    return measured


def compare(gate, baseline, measured):
    """Returns (failures, notes) comparing measured[group][key] with the baseline's."""
    tolerance = float(gate["tolerance"])
    failures, notes = [], []
    expected = baseline.get("values", {})
    for group, values in measured.items():
        if group not in expected:
            failures.append(f"{group}: not in the baseline")
            continue
        for key, value in values.items():
            if key not in expected[group]:
                failures.append(f"{group}: '{key}' = {value} is not in the baseline")
                continue
            old = expected[group][key]
            change = (value - old) / old if old else (0.0 if value == old else float("inf"))
            line = f"{group}: '{key}' {old} -> {value} ({100 * change:+.2f}%)"
            if change > tolerance:
                failures.append(line + f", more than {100 * tolerance:g}% over the baseline")
            elif change < -tolerance:
                notes.append(line + ": better; bazel run //tools/perf:update_baselines keeps it")
        for key in expected[group]:
            if key not in values:
                failures.append(f"{group}: '{key}' is in the baseline but was not measured")
    return failures, notes


RATIO_RE = re.compile(r"^(?P<numerator>\S.*?) <= (?P<limit>[0-9]+(?:\.[0-9]+)?) \* "
                      r"(?P<denominator>\S.*)$")


def parse_ratio(spec):
    """(numerator region, limit, denominator region) of "NUMERATOR <= LIMIT * DENOMINATOR"
    (region names may hold spaces and '=': the separators are " <= " and " * ")."""
    match = RATIO_RE.match(spec)
    if not match:
        raise perf_run.PerfError(f"ratio '{spec}': expected 'REGION <= LIMIT * REGION', e.g. "
                                 f"'streams=8 int8 <= 0.5 * streams=1 int8'")
    return match["numerator"], float(match["limit"]), match["denominator"]


def check_ratios(specs, measured):
    """Returns (failures, lines) for each ratio of `specs` in every group of measured
    (variant -> region -> instructions): a ratio over its limit, a region not measured or a
    denominator of 0 fails; the others are reported."""
    failures, lines = [], []
    for spec in specs:
        numerator, limit, denominator = parse_ratio(spec)
        for group, values in measured.items():
            missing = [r for r in (numerator, denominator) if r not in values]
            if missing:
                failures.append(f"{group}: ratio '{spec}': region " +
                                " and ".join(f"'{r}'" for r in missing) + " was not measured")
                continue
            if values[denominator] <= 0:
                failures.append(f"{group}: ratio '{spec}': '{denominator}' counted "
                                f"{values[denominator]} instructions")
                continue
            ratio = values[numerator] / values[denominator]
            line = (f"{group}: '{numerator}' / '{denominator}' = {values[numerator]} / "
                    f"{values[denominator]} = {ratio:.4f}")
            if ratio > limit:
                failures.append(line + f", over the limit of {limit:g}")
            else:
                lines.append(line + f" (at most {limit:g})")
    return failures, lines


def measure(runfiles, gate):
    return measure_mca(runfiles, gate) if gate["kind"] == "mca" else measure_counts(runfiles, gate)


def check(runfiles, gates):
    ok = True
    for gate in gates:
        with open(runfiles.path(gate["baseline_runfiles"])) as f:
            baseline = json.load(f)
        measured = measure(runfiles, gate)
        failures, notes = compare(gate, baseline, measured)
        ratio_failures, ratio_lines = check_ratios(gate.get("ratios", []), measured)
        failures += ratio_failures
        for note in notes:
            print(f"{gate['name']}: note: {note}")
        for line in ratio_lines:
            print(f"{gate['name']}: ratio: {line}")
        if gate["expect_failure"]:
            if not failures:
                print(f"{gate['name']}: FAIL: the gate passed, but this program is slower than "
                      f"its baseline {gate['baseline']} and must fail it")
                ok = False
            else:
                print(f"{gate['name']}: the gate fails as it must:")
                for failure in failures:
                    print(f"  {failure}")
            continue
        if failures:
            ok = False
            print(f"{gate['name']}: FAIL against {gate['baseline']}:")
            for failure in failures:
                print(f"  {failure}")
            print("  (an intended change: bazel run //tools/perf:update_baselines)")
        else:
            count = sum(len(v) for v in baseline.get("values", {}).values())
            print(f"{gate['name']}: {count} values within {100 * float(gate['tolerance']):g}% "
                  f"of {gate['baseline']}")
    return ok


def update(runfiles, gates):
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    if not workspace:
        raise perf_run.PerfError("--update rewrites source files: run it with bazel run")
    for gate in gates:
        if gate["expect_failure"]:
            continue
        measured = measure(runfiles, gate)
        baseline = {
            "gate": gate["name"],
            "kind": gate["kind"],
            "note": ("guest instructions per region, -c opt, one thread"
                     if gate["kind"] == "count" else "llvm-mca cycles per loop iteration"),
            "values": measured,
        }
        path = os.path.join(workspace, gate["baseline"])
        with open(path, "w") as f:
            json.dump(baseline, f, indent=2, sort_keys=True)
            f.write("\n")
        print(f"{gate['name']}: wrote {gate['baseline']}")
    return True


def main(argv):
    parser = argparse.ArgumentParser(prog="gate")
    parser.add_argument("--manifest", required=True)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--update", action="store_true")
    options = parser.parse_args(argv)
    with open(options.manifest) as f:
        gates = json.load(f)["gates"]
    try:
        runfiles = perf_run.Runfiles.from_environment()
        ok = check(runfiles, gates) if options.check else update(runfiles, gates)
    except perf_run.PerfError as e:
        print(f"gate: {e}", file=sys.stderr)
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
