"""bazel run //tools/perf:count -- [--variant=vl128] [--threads=1] [--top=25] [--blocks=N] [--json=FILE] PROGRAM [ARGS...]

Runs an aarch64 program under the pinned qemu-aarch64 in one QEMU variant (tests/qemu/
variants.bzl) with the instruction-counting plugin, with --threads worker threads
(TCPU_NUM_THREADS, default 1), and prints the guest instructions per region (tcpu/perf.h
markers) and per symbol. With more than one thread, regions that ran parallel regions also get
their balance: the busiest worker's instructions over the mean worker's, summed over the
parallel regions (1.00 is perfect), and the instructions the region's own thread ran outside
them. With --blocks=N, also the N blocks of guest code that executed the most instructions,
each as function+offset (llvm-objdump --disassemble-symbols=FUNCTION shows it), its length,
executions and instructions: where in a kernel the instructions go. PROGRAM is a path (relative
to the workspace), e.g. bazel-bin/kernels/gemv/gemv_benchmark built with --config=aarch64.
"""

import argparse
import dataclasses
import json
import os
import sys

import perf_run


def missing_program_message(workspace, program):
    """Why `program` is not there: bazel-bin is the output tree of the last Bazel command, and
    `bazel run //tools/perf:count` without the build's -c moved it (a program built with -c opt
    is under bazel-out/k8-opt/bin). Names the output trees that hold the program."""
    message = f"no such program: {program}"
    prefix = "bazel-bin" + os.sep
    if not program.startswith(prefix):
        return message
    relative = program[len(prefix):]
    out = os.path.join(workspace, "bazel-out")
    found = sorted(os.path.join("bazel-out", tree, "bin", relative)
                   for tree in (os.listdir(out) if os.path.isdir(out) else [])
                   if os.path.isfile(os.path.join(out, tree, "bin", relative)))
    current = os.path.relpath(os.path.realpath(os.path.join(workspace, "bazel-bin")),
                              os.path.realpath(out))
    message += (f" (bazel-bin is the last Bazel command's output tree, now bazel-out/{current}: "
                "run count with the -c of the program's build, e.g. bazel run -c opt "
                "//tools/perf:count -- ...")
    if found:
        message += f"; the program is at {', '.join(found)}"
    return message + ")"


def main(argv):
    parser = argparse.ArgumentParser(prog="count", description=__doc__.split("\n\n")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="vl128", help="QEMU variant (default vl128)")
    parser.add_argument("--threads", type=int, default=1,
                        help="guest worker threads, TCPU_NUM_THREADS (default 1)")
    parser.add_argument("--top", type=int, default=25, help="symbols to print (default 25)")
    parser.add_argument("--blocks", type=int, default=0,
                        help="blocks of guest code to print, most instructions first (default 0)")
    parser.add_argument("--json", help="also write the counts to this file")
    parser.add_argument("program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY", os.getcwd())
    program = os.path.join(workspace, options.program)
    try:
        if not os.path.isfile(program):
            raise perf_run.PerfError(missing_program_message(workspace, options.program))
        runfiles = perf_run.Runfiles.from_environment()
        if options.threads < 1:
            raise perf_run.PerfError(f"--threads wants a positive count, got {options.threads}")
        if options.blocks < 0:
            raise perf_run.PerfError(f"--blocks wants a count of 0 or more, got {options.blocks}")
        counts = perf_run.run_counted(runfiles, program, options.args, options.variant,
                                      env={"TCPU_NUM_THREADS": str(options.threads)},
                                      blocks=options.blocks > 0)
    except perf_run.PerfError as e:
        print(f"count: {e}", file=sys.stderr)
        return 1
    print(f"\n{options.program} ({options.variant}): {counts.total} guest instructions")
    if counts.regions:
        print(f"\n{'region':<48} {'calls':>7} {'instructions':>14} {'per call':>12}")
        for r in counts.regions.values():
            per_call = r.instructions / r.calls if r.calls else 0
            print(f"{r.name:<48} {r.calls:>7} {r.instructions:>14} {per_call:>12.1f}")
        parallel = [r for r in counts.regions.values() if r.parallel]
        if parallel:
            print(f"\n{'region (parallel balance)':<48} {'regions':>7} {'busiest/mean':>12} "
                  f"{'work':>14} {'serial':>14}")
            for r in parallel:
                p = r.parallel
                print(f"{r.name:<48} {p.groups:>7} {p.balance:>12.4f} {p.work:>14} "
                      f"{p.serial:>14}")
    print(f"\n{'instructions':>14} {'share':>7}  symbol")
    for name, n in counts.symbols[:options.top]:
        print(f"{n:>14} {100.0 * n / counts.total:>6.2f}%  {name}")
    if options.blocks > 0:
        print(f"\n{'instructions':>14} {'share':>7} {'executions':>11} {'length':>7}  block")
        for b in counts.blocks[:options.blocks]:
            where = f"{b.symbol}+{b.offset:#x}" if b.offset is not None else f"{b.address:#x}"
            print(f"{b.instructions:>14} {100.0 * b.instructions / counts.total:>6.2f}% "
                  f"{b.executions:>11} {b.length:>7}  {where}")
    for error in counts.errors:
        print(f"count: plugin: {error}", file=sys.stderr)
    if options.json:
        with open(os.path.join(workspace, options.json), "w") as f:
            json.dump({"program": options.program, "variant": options.variant,
                       "threads": options.threads,
                       "total": counts.total, "symbols": counts.symbols,
                       "regions": [dataclasses.asdict(r) for r in counts.regions.values()],
                       "errors": counts.errors,
                       **({"blocks": [dataclasses.asdict(b) for b in counts.blocks]}
                          if counts.blocks is not None else {})}, f, indent=2)
    return 1 if counts.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
