"""bazel run //tools/perf:board_prediction -- [--ghz=2.5] [--cores=8] [--bandwidth=40] [--out=FILE]

Predicts decode and prefill tokens/s of a model with MiniCPM5-1B's shapes (hidden 1536, 24
layers, 16/2 heads, intermediate 4608, vocab 130560: the 169 linear layers of the reference
system's MiniCPM5-0.9B test) on a board with `cores` Cortex-A720 cores at `ghz` and `bandwidth`
GB/s of DRAM, from what can be measured without the board:

  - the guest instructions of one decode step (context 512), of one batched decode step of 8
    concurrent streams (each at a context of 512 in its own KV cache: every linear layer one
    GEMM of 8 rows, what tcpu_decoder_step_batch runs) and of a 128-token batched prompt,
    counted under QEMU (VL128, the A720's vector length) with `cores` workers: the calling
    thread's serial instructions plus, for every parallel region, the busiest worker's
    (count_plugin.c), which is the step's critical path in instructions;
  - llvm-mca's cycles per iteration of the kernels' inner loops on -mcpu=cortex-a720 (the int8
    and int4 GEMVs for decode, the i8mm GEMM for the batched step and prefill), whose
    instructions per cycle turn instructions into time: time = critical-path instructions /
    (IPC x GHz);
  - the weight bytes one token reads (the benchmark's own count), whose time at the bandwidth
    is the memory bound: bytes / bandwidth per decode step, per 64-token block for prefill; the
    batched step reads the weights once for its 8 tokens, and each stream its own KV cache,
    which counts too (12.6 MB per token at 512 tokens).

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
    parser.add_argument("--step-batch", required=True,
                        help="the program with BM_StepBatch8 (8 streams, region step_batch)")
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
        print("board_prediction: decode, 8 concurrent streams, int8", file=sys.stderr)
        streams = 8
        output, counts = counted(runfiles, runfiles.path(options.step_batch),
                                 ["--benchmark_filter=BM_StepBatch8/threads:0/"], options.cores)
        step_batch = output["benchmarks"][0]
        path, balance = critical_path(counts, "step_batch", options.cores)
        (rate, bound), compute, memory = predict(path / streams, ipc["gemm_i8mm"], options.ghz,
                                                 step_batch["bytes/token"], options.bandwidth)
        rows.append((f"decode, {streams} concurrent streams (aggregate)", "int8 (W8A8)",
                     path / streams, balance, step_batch["weight_bytes/token"], "gemm_i8mm",
                     ipc["gemm_i8mm"], compute, memory, rate, bound))
        batch_note = (streams, step_batch["kv_bytes/token"], rate / streams)
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
    streams, kv_bytes, per_stream = batch_note
    lines += ["", f"Beside it: {REFERENCE[0]}: {REFERENCE[1]} tokens/s decode.", "",
              f"The {streams}-stream row is one batched decode step (`BM_StepBatch8` of "
              f"//engine/model:prefill_benchmark: {streams} streams, each at a context of 512 in "
              f"its own KV cache) per {streams} tokens: its instructions and weight bytes are per "
              f"token of the aggregate, and its bandwidth bound also counts each stream's KV "
              f"cache, {kv_bytes / 1e6:.1f} MB per token; {per_stream:.1f} tokens/s per stream.",
              ""]
    text = "\n".join(lines)
    with open(os.path.join(workspace, options.out), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
