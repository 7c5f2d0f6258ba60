"""bazel run //tools/perf:report -- [--out=docs/perf-report] [--families=gemv,gemm,...]
                                 [--variants=vl128,...] [--shapes=issue,decode,prefill]

Runs every kernel family of perf_kernels at the issue's shapes (N=512 K=2048; GEMM M=1..512)
and MiniCPM5-1B's decode and prefill shapes in each CPU variant, one thread, with the counting
plugin, and writes report.md, report.json and one SVG per family (instructions per weight byte,
per MAC or per element against the SVE vector length, with the floor and a peer where known).
docs/performance.md gets the decode roofline, those kernels' instructions against their floors
and the table of instructions and weight bytes per token at 1, 4 and 8 concurrent streams
(//engine/model:decode_streams_count, VL128). Big: minutes of emulation, so it is a `bazel run`
target, not a test.
"""

import argparse
import json
import os
import re
import sys
import tempfile

import perf_run

FAMILIES = ["gemv", "gemv_w8a8", "gemm", "gemv_w4a8", "gemm_w4a8", "fused_mlp", "flash_attn", "rms_norm", "swiglu", "rope"]
VARIANTS = ["vl128", "vl256", "vl512", "vl1024", "vl2048", "nosve", "n1", "a53"]
SVE_BITS = {"vl128": 128, "vl256": 256, "vl512": 512, "vl1024": 1024, "vl2048": 2048}

# Floors per unit at an SVE vector length of `bits` (the model): int8 GEMV, one SDOT
# per vector of weights plus a quarter of a 4-vector load; i8mm GEMM, one SMMLA per 128-bit
# segment's 2x2x8 tile at 128 bits (~0.031 with loads) scaling with the vector length.
FLOORS = {
    "gemv": lambda bits: 1.25 / (bits / 8),
    "gemv_w8a8": lambda bits: 1.25 / (bits / 8),
    "fused_mlp": lambda bits: 1.25 / (bits / 8),
    "gemm": lambda bits: 0.031 * 128 / bits,
    # W4A8 GEMV per weight: per 128-bit vector of 4 rows x 32 k (one group), 8 SDOT, 8 nibble
    # unpacks (shift, AND), SCVTF + FMLA + a zeroed accumulator and a quarter of a 64-byte load.
    "gemv_w4a8": lambda bits: 20.0 / bits,
}
# Peers measured with the same plugin (issue 12, N=512 K=2048, one thread): KleidiAI.
PEERS = {
    "gemv": ("KleidiAI dotprod GEMV", 0.175),
    "gemm": ("KleidiAI i8mm GEMM, M=16", 0.0558),
}


def unit_of(family, line):
    if family in ("gemv", "gemv_w8a8", "fused_mlp"):
        return "weight byte", line["weight_bytes"]
    if family == "gemv_w4a8":
        return "weight", line["macs"]
    if line["macs"]:
        return "MAC", line["macs"]
    return "element", line["elements"]


def measure(runfiles, program, family, shapes, variant):
    """One run of perf_kernels: its JSON lines (one per region) joined with the counts."""
    with tempfile.TemporaryFile("w+") as out:
        counts = perf_run.run_counted(runfiles, program,
                                      [f"--family={family}", f"--shapes={shapes}"], variant,
                                      stdout=out)
        out.seek(0)
        result_lines = [json.loads(t) for t in out if t.startswith("{")]
    if counts.errors:
        raise perf_run.PerfError(f"{family} {shapes} {variant}: " + "; ".join(counts.errors))
    rows = []
    for line in result_lines:
        region = counts.regions.get(line["region"])
        if region is None:
            raise perf_run.PerfError(f"{family} {shapes} {variant}: no count for {line['region']}")
        unit, amount = unit_of(family, line)
        rows.append({
            "family": family, "shapes": shapes, "variant": variant, "region": line["region"],
            "kernel_variant": line["variant"], "instructions": region.instructions,
            "unit": unit, "per_unit": region.instructions / amount if amount else None,
        })
    return rows


def svg_plot(family, rows):
    """Instructions per unit against the SVE vector length (log2 axis), one line per region of
    the issue shapes, horizontal dashed lines for the NEON variants, floor and peer."""
    sve = [r for r in rows if r["variant"] in SVE_BITS and r["per_unit"]]
    if not sve:
        return None
    regions = sorted({r["region"] for r in sve})
    others = [r for r in rows if r["variant"] not in SVE_BITS and r["per_unit"]]
    values = [r["per_unit"] for r in sve + others]
    floor = FLOORS.get(family)
    if floor:
        values += [floor(b) for b in SVE_BITS.values()]
    if family in PEERS:
        values.append(PEERS[family][1])
    top = max(values) * 1.1
    width, height, left, bottom, right, top_margin = 720, 420, 70, 50, 230, 30
    plot_w, plot_h = width - left - right, height - bottom - top_margin
    bits = list(SVE_BITS.values())

    def x(b):
        return left + plot_w * (bits.index(b)) / (len(bits) - 1)

    def y(v):
        return top_margin + plot_h * (1 - v / top)

    unit = sve[0]["unit"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="18" font-size="13">{family}: instructions per {unit} '
           f'(one thread)</text>',
           f'<line x1="{left}" y1="{y(0)}" x2="{left + plot_w}" y2="{y(0)}" stroke="black"/>',
           f'<line x1="{left}" y1="{y(0)}" x2="{left}" y2="{top_margin}" stroke="black"/>']
    for b in bits:
        out.append(f'<text x="{x(b)}" y="{y(0) + 16}" text-anchor="middle">{b}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle">'
               f'SVE vector length (bits)</text>')
    for i in range(5):
        v = top * i / 4
        out.append(f'<text x="{left - 6}" y="{y(v) + 4}" text-anchor="end">{v:.3g}</text>')
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
    legend = []
    for i, region in enumerate(regions):
        color = colors[i % len(colors)]
        points = sorted((SVE_BITS[r["variant"]], r["per_unit"]) for r in sve
                        if r["region"] == region)
        path = " ".join(f"{x(b):.1f},{y(v):.1f}" for b, v in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        out += [f'<circle cx="{x(b):.1f}" cy="{y(v):.1f}" r="3" fill="{color}"/>'
                for b, v in points]
        legend.append((color, region, ""))
    for r in others:
        if r["region"] != regions[0]:
            continue
        legend.append(("#7f7f7f", f'{r["variant"]} ({r["kernel_variant"]}) {r["per_unit"]:.4g}',
                       "4,3"))
        out.append(f'<line x1="{left}" y1="{y(r["per_unit"]):.1f}" x2="{left + plot_w}" '
                   f'y2="{y(r["per_unit"]):.1f}" stroke="#7f7f7f" stroke-dasharray="4,3"/>')
    if floor:
        path = " ".join(f"{x(b):.1f},{y(floor(b)):.1f}" for b in bits)
        out.append(f'<polyline points="{path}" fill="none" stroke="black" '
                   f'stroke-dasharray="2,2"/>')
        legend.append(("black", "floor", "2,2"))
    if family in PEERS:
        name, value = PEERS[family]
        out.append(f'<line x1="{left}" y1="{y(value):.1f}" x2="{left + plot_w}" '
                   f'y2="{y(value):.1f}" stroke="#ff7f0e" stroke-dasharray="6,3"/>')
        legend.append(("#ff7f0e", f"{name} {value}", "6,3"))
    for i, (color, text, dash) in enumerate(legend):
        ly = top_margin + 14 * i
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{width - right + 10}" y1="{ly}" x2="{width - right + 30}" '
                   f'y2="{ly}" stroke="{color}" stroke-width="2"{dash_attr}/>')
        out.append(f'<text x="{width - right + 34}" y="{ly + 4}">{text}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def markdown(rows, variants, plots):
    lines = ["# Instruction counts per kernel (generated by `bazel run //tools/perf:report`)", "",
             "Guest instructions counted by tools/perf's QEMU plugin, one thread, `-c opt`, "
             "after one warm-up call; per weight byte for GEMVs, per MAC for matmuls, per "
             "output element otherwise. `issue`: N=512 K=2048 (GEMM M=1…512); `decode` / "
             "`prefill` (64 tokens): MiniCPM5-1B's projections and kernels.", ""]
    for family in dict.fromkeys(r["family"] for r in rows):
        lines += [f"## {family}", ""]
        if family in plots:
            lines += [f"![{family}]({plots[family]})", ""]
        family_rows = [r for r in rows if r["family"] == family]
        lines.append("| shapes | region | unit | " + " | ".join(variants) + " |")
        lines.append("|---|---|---|" + "---|" * len(variants))
        for shapes in dict.fromkeys(r["shapes"] for r in family_rows):
            for region in dict.fromkeys(r["region"] for r in family_rows if r["shapes"] == shapes):
                cells = {r["variant"]: r for r in family_rows
                         if r["shapes"] == shapes and r["region"] == region}
                unit = next(iter(cells.values()))["unit"]
                values = [f'{cells[v]["per_unit"]:.4g}' if v in cells and cells[v]["per_unit"]
                          else "–" for v in variants]
                lines.append(f"| {shapes} | {region} | {unit} | " + " | ".join(values) + " |")
        chosen = {r["variant"]: r["kernel_variant"] for r in family_rows}
        lines += ["", "Variant run: " + ", ".join(f"{v} `{chosen[v]}`" for v in variants
                                                   if v in chosen), ""]
    return "\n".join(lines)


# MiniCPM5-1B (hidden 1536, 24 layers, 16/2 heads of 128, intermediate 4608, vocab 130560).
MODEL = {"hidden": 1536, "layers": 24, "heads": 16, "kv_heads": 2, "head_dim": 128,
         "intermediate": 4608, "vocab": 130560}


def weights_per_token(model):
    """(linear weights per layer x layers + lm_head, rows of scales) read by one decode step."""
    h, d = model["hidden"], model["head_dim"]
    q, kv, i = model["heads"] * d, model["kv_heads"] * d, model["intermediate"]
    per_layer = q * h + 2 * kv * h + h * q + 3 * i * h
    rows = (q + 2 * kv + h + 3 * i) * model["layers"] + model["vocab"]
    return per_layer * model["layers"] + model["vocab"] * h, rows


STREAMS = (1, 4, 8)
STREAM_FORMATS = ("int8", "int4")


def measure_streams(runfiles, program):
    """{(format, streams): (instructions per token, weight bytes per token)} from one run of
    decode_streams_count (VL128, one thread; each region makes 8 tokens)."""
    with tempfile.TemporaryFile("w+") as out:
        counts = perf_run.run_counted(runfiles, program, ["both"], "vl128", stdout=out)
        out.seek(0)
        printed = out.read()
    if counts.errors:
        raise perf_run.PerfError("decode_streams_count: " + "; ".join(counts.errors))
    tokens = 8
    result = {}
    for fmt in STREAM_FORMATS:
        for n in STREAMS:
            region = f"streams={n} {fmt}"
            match = re.search(rf"^{re.escape(region)}: (\d+) weight bytes per token$", printed,
                              re.M)
            if region not in counts.regions or not match:
                raise perf_run.PerfError(f"decode_streams_count: no region or bytes for '{region}'")
            result[(fmt, n)] = (counts.regions[region].instructions / tokens, int(match.group(1)))
    return result


def streams_markdown(streams):
    lines = ["## Concurrent streams: instructions and weight bytes per generated token", "",
             "`//engine/model:decode_streams_count` (held by "
             "`//engine/model:decode_streams_perf_gate`, which also holds 8 int8 streams to at "
             "most 0.5x one stream), VL128, one thread, greedy, at the 213 M-weight Llama of "
             "`//tools/perf:decode_per_token` (hidden 1024, 16 layers, intermediate 2816, vocab "
             "32000). 1 stream is `tcpu_decode_step` (GEMV); 4 and 8 streams are one "
             "`tcpu_decoder_step_batch` pass per step (every linear layer one GEMM with a row per "
             "stream, attention per stream on its own KV cache). Weight bytes: the matrices are "
             "read once per step for all its streams; each stream reads its own embedding row.",
             "",
             "| streams | " + " | ".join(f"{fmt}: instructions per token | vs 1 stream | {fmt}: "
                                         f"weight bytes per token" for fmt in STREAM_FORMATS) + " |",
             "|---|" + "---|---|---|" * len(STREAM_FORMATS)]
    for n in STREAMS:
        cells = []
        for fmt in STREAM_FORMATS:
            instructions, nbytes = streams[(fmt, n)]
            cells += [f"{instructions / 1e6:.2f} M",
                      f"{instructions / streams[(fmt, 1)][0]:.3f}", f"{nbytes / 1e6:.1f} MB"]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def roofline_markdown(rows, bandwidths, streams):
    weights, scale_rows = weights_per_token(MODEL)
    int8 = weights + 4 * scale_rows             # int8 weights, one fp32 scale per row
    int4 = weights // 2 + 2 * (weights // 32)   # W4A8: 4-bit weights, fp16 scale per 32
    flops = 2 * weights
    lines = ["# Performance: roofline of MiniCPM5-1B decode (generated by "
             "`bazel run //tools/perf:report`)", "",
             "Decode reads every weight once per token, so DRAM bandwidth bounds it; the "
             "instruction counts below (QEMU plugin, one thread) say how close each kernel's "
             "loop is to its floor, which decides whether one core can keep up with that "
             "bandwidth.", "",
             "| | int8 (W8A8) | int4 (W4A8, groups of 32, fp16 scales) |", "|---|---|---|",
             f"| weight bytes per token | {int8 / 1e6:.1f} MB | {int4 / 1e6:.1f} MB |",
             f"| FLOPs per token (2 per weight) | {flops / 1e9:.2f} G | {flops / 1e9:.2f} G |"]
    for board, gbps in bandwidths:
        lines.append(f"| tokens/s ceiling at {gbps:g} GB/s ({board}) | "
                     f"{gbps * 1e9 / int8:.1f} | {gbps * 1e9 / int4:.1f} |")
    lines += ["", "Bandwidths are given with `--bandwidth NAME=GB/s` (default: the 40 GB/s "
              "measured on a Cortex-A720 board, CIX P1); the int4 column is the format of "
              "`tcpu/gemv_q4.h` (kernels/q4).", "",
              "## Instructions per unit at N=512, K=2048 (GEMM per MAC)", "",
              "| kernel | variant | instructions | floor |", "|---|---|---|---|"]
    for r in rows:
        if r["shapes"] != "issue" or r["family"] not in ("gemv", "gemm", "gemv_w4a8", "gemm_w4a8"):
            continue
        floor = ""
        bits = SVE_BITS.get(r["variant"], 128)
        if r["family"] in FLOORS and (r["family"] != "gemm" or "m=1 " not in r["region"]):
            floor = f"{FLOORS[r['family']](bits if r['kernel_variant'].endswith('sve2') else 128):.4f}"
        lines.append(f"| {r['region']} | {r['variant']} (`{r['kernel_variant']}`) | "
                     f"{r['per_unit']:.4f} per {r['unit']} | {floor} |")
    lines += ["", "Full tables and plots: [perf-report/report.md](perf-report/report.md).", ""]
    lines += streams_markdown(streams)
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(prog="report")
    parser.add_argument("--out", default="docs/perf-report")
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--shapes", default="issue,decode,prefill")
    parser.add_argument("--bandwidth", action="append", default=[],
                        help="NAME=GB/s of a board for the roofline (repeatable)")
    parser.add_argument("--roofline", default="docs/performance.md")
    options = parser.parse_args(argv)
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY", os.getcwd())
    out_dir = os.path.join(workspace, options.out)
    os.makedirs(out_dir, exist_ok=True)
    variants = options.variants.split(",")
    try:
        runfiles = perf_run.Runfiles.from_environment()
        program = runfiles.path("tcpu_sdk/tools/perf/perf_kernels_aarch64_opt/perf_kernels")
        rows = []
        for family in options.families.split(","):
            for shapes in options.shapes.split(","):
                for variant in variants:
                    print(f"report: {family} {shapes} {variant}", file=sys.stderr)
                    rows += measure(runfiles, program, family, shapes, variant)
        print("report: decode streams", file=sys.stderr)
        streams = measure_streams(runfiles, runfiles.path(
            "tcpu_sdk/tools/perf/decode_streams_count_aarch64_opt/decode_streams_count"))
    except perf_run.PerfError as e:
        print(f"report: {e}", file=sys.stderr)
        return 1
    plots = {}
    for family in dict.fromkeys(r["family"] for r in rows):
        svg = svg_plot(family, [r for r in rows if r["family"] == family and r["shapes"] == "issue"]
                       or [r for r in rows if r["family"] == family and r["shapes"] == "decode"])
        if svg:
            plots[family] = f"{family}.svg"
            with open(os.path.join(out_dir, plots[family]), "w") as f:
                f.write(svg)
    with open(os.path.join(out_dir, "report.json"), "w") as f:
        json.dump({"rows": rows, "floors_at_128": {k: v(128) for k, v in FLOORS.items()},
                   "peers": PEERS}, f, indent=1)
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(markdown(rows, variants, plots))
    bandwidths = []
    for spec in options.bandwidth or ["Cortex-A720 (CIX P1)=40"]:
        name, _, value = spec.rpartition("=")
        try:
            bandwidths.append((name, float(value)))
        except ValueError:
            print(f"report: --bandwidth wants NAME=GB/s, got '{spec}'", file=sys.stderr)
            return 2
    with open(os.path.join(workspace, options.roofline), "w") as f:
        f.write(roofline_markdown(rows, bandwidths, streams))
    print(f"report: wrote {options.out}/report.md, report.json, {len(plots)} plots and "
          f"{options.roofline}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
