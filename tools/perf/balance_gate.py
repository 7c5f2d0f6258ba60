"""Parallel-balance gates (defs.bzl's perf_balance_gate_test writes the manifest).

  balance_gate.py --manifest M

Runs the gate's program under the counting plugin with each of its thread counts and fails
when a named region's parallel balance (the busiest worker's instructions over the mean
worker's, summed over the thread pool's parallel regions inside it; count_plugin.c) is over
the limit, or the region ran no parallel region at all.
"""

import argparse
import json
import subprocess
import sys

import perf_run


def check(runfiles, gate):
    program = runfiles.path(gate["program"])
    limit = float(gate["max_balance"])
    failures = []
    print(f"{gate['name']}: busiest/mean worker instructions, limit {limit:g}")
    print(f"  {'region':<32} {'threads':>7} {'regions':>8} {'balance':>8} {'serial share':>12}")
    for threads in gate["threads"]:
        counts = perf_run.run_counted(runfiles, program, gate["args"], gate["variant"],
                                      env={"TCPU_NUM_THREADS": str(threads)},
                                      stdout=subprocess.DEVNULL)
        if counts.errors:
            raise perf_run.PerfError(f"{gate['name']} ({threads} threads): " +
                                     "; ".join(counts.errors))
        for name in gate["regions"]:
            region = counts.regions.get(name)
            if region is None or region.parallel is None:
                failures.append(f"'{name}' at {threads} threads: "
                                + ("no such region" if region is None else
                                   "it ran no parallel region"))
                continue
            p = region.parallel
            # The serial share: the opener's own work against the time the region would take
            # with every worker as busy as the busiest (in instructions).
            serial_share = p.serial / (p.serial + p.busiest)
            print(f"  {name:<32} {threads:>7} {p.groups:>8} {p.balance:>8.4f} "
                  f"{100 * serial_share:>11.1f}%")
            if p.balance > limit:
                failures.append(f"'{name}' at {threads} threads: balance {p.balance:.4f} is over "
                                f"{limit:g}")
    for failure in failures:
        print(f"{gate['name']}: FAIL: {failure}")
    return not failures


def main(argv):
    parser = argparse.ArgumentParser(prog="balance_gate")
    parser.add_argument("--manifest", required=True)
    options = parser.parse_args(argv)
    with open(options.manifest) as f:
        gate = json.load(f)
    try:
        ok = check(perf_run.Runfiles.from_environment(), gate)
    except perf_run.PerfError as e:
        print(f"balance_gate: {e}", file=sys.stderr)
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
