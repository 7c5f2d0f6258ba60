"""bazel run //tools/perf:count -- [--variant=vl128] [--top=25] [--json=FILE] PROGRAM [ARGS...]

Runs an aarch64 program under the pinned qemu-aarch64 in one QEMU variant (tests/qemu/
variants.bzl) with the instruction-counting plugin, one guest thread (TCPU_NUM_THREADS=1),
and prints the guest instructions per region (tcpu/perf.h markers) and per symbol.
PROGRAM is a path (relative to the workspace), e.g. bazel-bin/kernels/gemv/gemv_benchmark
built with --config=aarch64.
"""

import argparse
import dataclasses
import json
import os
import sys

import perf_run


def main(argv):
    parser = argparse.ArgumentParser(prog="count", description=__doc__.split("\n\n")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="vl128", help="QEMU variant (default vl128)")
    parser.add_argument("--top", type=int, default=25, help="symbols to print (default 25)")
    parser.add_argument("--json", help="also write the counts to this file")
    parser.add_argument("program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY", os.getcwd())
    program = os.path.join(workspace, options.program)
    try:
        runfiles = perf_run.Runfiles.from_environment()
        counts = perf_run.run_counted(runfiles, program, options.args, options.variant)
    except perf_run.PerfError as e:
        print(f"count: {e}", file=sys.stderr)
        return 1
    print(f"\n{options.program} ({options.variant}): {counts.total} guest instructions")
    if counts.regions:
        print(f"\n{'region':<48} {'calls':>7} {'instructions':>14} {'per call':>12}")
        for r in counts.regions.values():
            per_call = r.instructions / r.calls if r.calls else 0
            print(f"{r.name:<48} {r.calls:>7} {r.instructions:>14} {per_call:>12.1f}")
    print(f"\n{'instructions':>14} {'share':>7}  symbol")
    for name, n in counts.symbols[:options.top]:
        print(f"{n:>14} {100.0 * n / counts.total:>6.2f}%  {name}")
    for error in counts.errors:
        print(f"count: plugin: {error}", file=sys.stderr)
    if options.json:
        with open(os.path.join(workspace, options.json), "w") as f:
            json.dump({"program": options.program, "variant": options.variant,
                       "total": counts.total, "symbols": counts.symbols,
                       "regions": [dataclasses.asdict(r) for r in counts.regions.values()],
                       "errors": counts.errors}, f, indent=2)
    return 1 if counts.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
