"""bazel run //tools/perf:board_prediction -- [--ghz=2.5] [--cores=8] [--bandwidth=40] [--out=FILE]

Predicts decode and prefill tokens/s of a model with MiniCPM5-1B's shapes (hidden 1536, 24
layers, 16/2 heads, intermediate 4608, vocab 130560: the 169 linear layers of the reference
system's MiniCPM5-0.9B test) on a board with `cores` Cortex-A720 cores at `ghz` and `bandwidth`
GB/s of DRAM, from what can be measured without the board:

  - the guest instructions of one decode step (context 512) and of a 128-token batched prompt,
    counted under QEMU (VL128, the A720's vector length) with `cores` workers: the calling
    thread's serial instructions plus, for every parallel region, the busiest worker's
    (count_plugin.c), which is the step's critical path in instructions;
  - llvm-mca's cycles per iteration of the kernels' inner loops on -mcpu=cortex-a720 (the int8
    and int4 GEMVs for decode, the i8mm GEMM for prefill), whose instructions per cycle turn
    instructions into time: time = critical-path instructions / (IPC x GHz);
  - the weight bytes one token reads (the benchmark's own count), whose time at the bandwidth
    is the memory bound: bytes / bandwidth per decode step, per 64-token block for prefill.

Each figure is the smaller of the two rates, labelled with its bound. The model assumes every
instruction runs at its loop's IPC (the GEMV/GEMM loops are most of them) and perfect overlap of
memory and compute; it is an estimate to compare against a board, not a measurement.
"""

import argparse
import json
import os
import sys
import tempfile

import gate
import perf_run

REFERENCE = ("FlagTree (Triton JIT), MiniCPM5-0.9B INT8, 8x Cortex-A720 (CIX P1), published",
             18.66)


def counted(runfiles, program, args, threads):
    """Runs a benchmark under the plugin; returns (its JSON output, Counts)."""
    with tempfile.TemporaryFile("w+") as out:
        counts = perf_run.run_counted(runfiles, program,
                                      [*args, "--benchmark_min_time=0", "--benchmark_format=json"],
                                      "vl128", env={"TCPU_NUM_THREADS": str(threads)}, stdout=out)
        out.seek(0)
        output = json.load(out)
    if counts.errors:
        raise perf_run.PerfError("; ".join(counts.errors))
    return output, counts


def critical_path(counts, region, threads):
    r = counts.regions.get(region)
    if r is None:
        raise perf_run.PerfError(f"the program marked no region '{region}'")
    if r.parallel is None:  # one worker: everything is the calling thread's
        return r.instructions, 1.0
    return r.parallel.serial + r.parallel.busiest, r.parallel.balance


def loop_ipc(runfiles, asm, loop):
    body = gate.loop_body(runfiles.path(asm), loop)
    return len(body) / gate.mca_cycles(runfiles, body, "cortex-a720", loop)


def predict(instructions, ipc, ghz, memory_bytes, gbps):
    compute = ipc * ghz * 1e9 / instructions  # tokens/s if compute bound
    memory = gbps * 1e9 / memory_bytes
    return (compute, "compute") if compute < memory else (memory, "bandwidth"), compute, memory


def main(argv):
    parser = argparse.ArgumentParser(prog="board_prediction")
    parser.add_argument("--ghz", type=float, default=2.5, help="A720 clock (default 2.5)")
    parser.add_argument("--cores", type=int, default=8, help="big cores used (default 8)")
    parser.add_argument("--bandwidth", type=float, default=40.0,
                        help="measured DRAM GB/s (default 40, CIX P1)")
    parser.add_argument("--out", default="docs/board-prediction.md")
    parser.add_argument("--decode", required=True)
    parser.add_argument("--prefill", required=True)
    parser.add_argument("--asm", action="append", default=[], help="LOOP=FILE (llvm-mca)")
    options = parser.parse_args(argv)
    if options.ghz <= 0 or options.cores < 1 or options.bandwidth <= 0:
        print("board_prediction: --ghz, --cores and --bandwidth must be positive", file=sys.stderr)
        return 2
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY", os.getcwd())
    try:
        runfiles = perf_run.Runfiles.from_environment()
        asm = dict(a.split("=", 1) for a in options.asm)
        ipc = {loop: loop_ipc(runfiles, path, loop) for loop, path in asm.items()}
        rows = []
        for weights, name, loop in ((0, "int8 (W8A8)", "gemv_dotprod"),
                                    (1, "int4 (W4A8)", "q4_gemv_dotprod")):
            print(f"board_prediction: decode {name}", file=sys.stderr)
            output, counts = counted(runfiles, runfiles.path(options.decode),
                                     [f"--benchmark_filter=threads:0/weights:{weights}/"],
                                     options.cores)
            bytes_per_token = output["benchmarks"][0]["bytes/token"]
            path, balance = critical_path(counts, "decode_step", options.cores)
            (rate, bound), compute, memory = predict(path, ipc[loop], options.ghz,
                                                     bytes_per_token, options.bandwidth)
            rows.append(("decode", name, path, balance, bytes_per_token, loop, ipc[loop],
                         compute, memory, rate, bound))
        print("board_prediction: prefill int8", file=sys.stderr)
        output, counts = counted(runfiles, runfiles.path(options.prefill),
                                 ["--benchmark_filter=BM_Prompt128/mode:1/threads:0/"],
                                 options.cores)
        path, balance = critical_path(counts, "prompt", options.cores)
        prompt = 128
        decode_bytes = rows[0][4]
        (rate, bound), compute, memory = predict(path / prompt, ipc["gemm_i8mm"], options.ghz,
                                                 decode_bytes / 64, options.bandwidth)
        rows.append(("prefill (128-token prompt, blocks of 64)", "int8 (W8A8)", path / prompt,
                     balance, decode_bytes / 64, "gemm_i8mm", ipc["gemm_i8mm"], compute, memory,
                     rate, bound))
    except (perf_run.PerfError, KeyError, IndexError, ValueError) as e:
        print(f"board_prediction: {e}", file=sys.stderr)
        return 1
    lines = [f"# Predicted tokens/s on {options.cores} Cortex-A720 cores at {options.ghz:g} GHz "
             f"and {options.bandwidth:g} GB/s", "",
             "Generated by `bazel run //tools/perf:board_prediction` (tools/perf/"
             "board_prediction.py says how): MiniCPM5-1B's shapes, decode at a context of 512.",
             "",
             "| phase | weights | critical-path instructions per token | balance (busiest/mean "
             "worker) | weight bytes per token | IPC (llvm-mca loop) | compute-bound tokens/s | "
             "bandwidth-bound tokens/s | predicted tokens/s | bound |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for phase, name, path, balance, nbytes, loop, loop_ipc_value, compute, memory, rate, bound in rows:
        lines.append(f"| {phase} | {name} | {path / 1e6:.2f} M | {balance:.4f} | "
                     f"{nbytes / 1e6:.1f} MB | {loop_ipc_value:.2f} (`{loop}`) | {compute:.1f} | "
                     f"{memory:.1f} | **{rate:.1f}** | {bound} |")
    lines += ["", f"Beside it: {REFERENCE[0]}: {REFERENCE[1]} tokens/s decode.", ""]
    text = "\n".join(lines)
    with open(os.path.join(workspace, options.out), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
