"""Writes the synthetic corpora of tests/triton_replay (format 1, tools/triton_capture/FORMAT.md)
from kernels of kernels/triton, with inputs from a fixed seed and the expected outputs computed
here in plain Python, independently of the CPU backend:

    bazel run //tests/triton_replay/synthetic:make_corpus     # rewrites good/ and broken/

good/    ten launches of seven kernels (vector_add, descriptor_scale, softmax, layer_norm,
         fp16_arith, argmax, scan's two kernels) that must all replay `ok`: two arguments in one
         buffer, input buffers left unchanged, a `poisoned` buffer, a tensor descriptor, f32 and
         i32 scalars, f16 and i32 data.
broken/  launches that must each fail at a known stage, with a known message (the runner's
         self-check): wrong expected values, missing and short blobs, malformed fields, a TTIR
         that does not compile, a write past a buffer's end, a kernel name the TTIR lacks.
"""

import argparse
import hashlib
import io
import json
import lzma
import math
import os
import random
import struct
import sys
import tarfile
from fractions import Fraction

SEED = 20240611
KERNELS = os.path.join("kernels", "triton")


# --- numbers as the GPU would store them ---------------------------------------------------

def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def pack(fmt, values):
    return struct.pack("<%d%s" % (len(values), fmt), *values)


def unpack(fmt, data):
    return list(struct.unpack("<%d%s" % (len(data) // struct.calcsize(fmt), fmt), data))


def f32_bits(x):
    return "0x%08x" % struct.unpack("<I", struct.pack("<f", x))[0]


# --- the corpus ----------------------------------------------------------------------------

class Corpus:
    def __init__(self, root, description):
        self.root = root
        self.description = description
        self.files = {}
        self.launches = []

    def ttir(self, name=None, text=None):
        if text is None:
            with open(os.path.join(self.root, KERNELS, name + ".ttir"), encoding="utf-8") as f:
                text = f.read()
        data = text.encode("utf-8")
        path = "ttir/%s.ttir" % hashlib.sha256(data).hexdigest()[:16]
        self.files[path] = data
        return path

    def blob(self, data):
        path = "blobs/%s.bin" % hashlib.sha256(data).hexdigest()[:24]
        self.files[path] = data
        return path

    def launch(self, record, family, buffer_bytes=None):
        """Adds a record; its buffers give `before`/`after` (and `poisoned_after`) as bytes."""
        buffers = []
        for buffer in record["buffers"]:
            entry = {"id": buffer["id"], "nbytes": buffer.get("nbytes", len(buffer["before"])),
                     "before": buffer.get("before_path") or self.blob(buffer["before"]),
                     "after": self.blob(buffer["after"]),
                     "changed": buffer["before"] != buffer["after"]}
            if "poisoned_after" in buffer:
                entry["poisoned"] = {"fill": buffer["fill"], "after": self.blob(buffer["poisoned_after"])}
            buffers.append(entry)
        record = dict(record, buffers=buffers, num_warps=4, num_stages=1)
        record = {key: record[key] for key in ["id", "kernel", "ttir", "grid", "num_warps",
                                               "num_stages", "params", "args", "buffers"]}
        self.files["launches/%s.json" % record["id"]] = (json.dumps(record, indent=1) + "\n").encode()
        self.launches.append({"id": record["id"], "workload": "synthetic", "kernel": record["kernel"],
                              "family": family, "ttir": record["ttir"],
                              "record": "launches/%s.json" % record["id"],
                              "buffer_bytes": sum(b["nbytes"] for b in buffers)})

    def write(self, out):
        os.makedirs(out, exist_ok=True)
        manifest = {
            "format": 1,
            "made_with": {"generator": "tests/triton_replay/synthetic/make_corpus.py",
                          "seed": SEED, "gpu": "none: expected outputs computed in Python"},
            "size_cap_bytes": 4194304,
            "workloads": [{"name": "synthetic", "description": self.description,
                           "launches": len(self.launches), "skipped": 0}],
            "launches": self.launches,
            "skipped": [],
        }
        with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
            f.write(json.dumps(manifest, indent=1) + "\n")
        # Reproducible: sorted members (ttir/, launches/, blobs/ as FORMAT.md lists them), no
        # times, owners or modes of this machine.
        order = {"ttir": 0, "launches": 1, "blobs": 2}
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
            for path in sorted(self.files, key=lambda p: (order[p.split("/")[0]], p)):
                info = tarfile.TarInfo(path)
                info.size = len(self.files[path])
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(self.files[path]))
        with open(os.path.join(out, "corpus.tar.xz"), "wb") as f:
            f.write(lzma.compress(raw.getvalue(), preset=9))


def ptr(buffer, dtype, offset=0):
    return {"kind": "ptr", "buffer": buffer, "offset": offset, "dtype": dtype}


def i32(value):
    return {"kind": "scalar", "type": "i32", "value": value}


def fp32(value):
    return {"kind": "scalar", "type": "f32", "bits": f32_bits(value), "value": value}


def params(*names):
    """The Python parameters (informational): "*fp32 x" style names."""
    out = []
    for name in names:
        kind, _, pname = name.partition(" ")
        out.append({"name": pname, "type": kind, "constexpr": kind == "constexpr"})
    return out


# --- the kernels' references ----------------------------------------------------------------

def vector_add_record(corpus, rng, launch_id, n, out_tail=100, out_before=None):
    x = [f32(rng.uniform(-4, 4)) for _ in range(n)]
    y = [f32(rng.uniform(-4, 4)) for _ in range(n)]
    total = [f32(a + b) for a, b in zip(x, y)]
    before = out_before(total) if out_before else [f32(rng.uniform(-1, 1)) for _ in range(n + out_tail)]
    after = total + before[n:]
    return {
        "id": launch_id, "kernel": "add_kernel", "ttir": corpus.ttir("vector_add"),
        "grid": [(n + 1023) // 1024, 1, 1],
        "params": params("*fp32 x_ptr", "*fp32 y_ptr", "*fp32 output_ptr", "i32 n_elements",
                         "constexpr BLOCK_SIZE"),
        "args": [ptr(0, "float32"), ptr(1, "float32"), ptr(2, "float32"), i32(n)],
        "buffers": [
            {"id": 0, "before": pack("f", x), "after": pack("f", x)},
            {"id": 1, "before": pack("f", y), "after": pack("f", y)},
            {"id": 2, "before": pack("f", before), "after": pack("f", after)},
        ],
    }


def good_corpus(root):
    rng = random.Random(SEED)
    corpus = Corpus(root, "kernels of kernels/triton on seeded inputs; outputs computed in Python")

    # 0001: three buffers, a ragged last block, the output's tail left alone.
    corpus.launch(vector_add_record(corpus, rng, "0001", 3000), "pointwise")

    # 0002: x and y are two views of one storage (x = s[0:n], y = s[n+16:2n+16]).
    n = 1500
    storage = [f32(rng.uniform(-4, 4)) for _ in range(2 * n + 16)]
    x, y = storage[:n], storage[n + 16:]
    out_before = [0.0] * n
    corpus.launch({
        "id": "0002", "kernel": "add_kernel", "ttir": corpus.ttir("vector_add"), "grid": [2, 1, 1],
        "params": params("*fp32 x_ptr", "*fp32 y_ptr", "*fp32 output_ptr", "i32 n_elements",
                         "constexpr BLOCK_SIZE"),
        "args": [ptr(0, "float32"), ptr(0, "float32", (n + 16) * 4), ptr(1, "float32"), i32(n)],
        "buffers": [
            {"id": 0, "before": pack("f", storage), "after": pack("f", storage)},
            {"id": 1, "before": pack("f", out_before),
             "after": pack("f", [f32(a + b) for a, b in zip(x, y)])},
        ],
    }, "pointwise")

    # 0003: the output already held x + y (a second launch, as autotuning makes): unchanged, so
    # the capture ran it again with the output filled with 0xff (`poisoned`).
    record = vector_add_record(corpus, rng, "0003", 1024, out_before=lambda total: list(total))
    out = record["buffers"][2]
    out["poisoned_after"], out["fill"] = out["after"], 255
    corpus.launch(record, "pointwise")

    # 0004: a tensor descriptor over a padded 10 x 20 matrix (rows 24 apart, 256 bytes into its
    # buffer), y = 2 x + 1 stored through a descriptor the kernel makes on y (M x N, rows N apart).
    m, n, ld, base = 10, 20, 24, 64
    xs = [f32(rng.uniform(-8, 8)) for _ in range(base + m * ld)]
    y_before = [f32(rng.uniform(-1, 1)) for _ in range(m * n + 8)]
    y_after = list(y_before)
    for i in range(m):
        for j in range(n):
            y_after[i * n + j] = f32(f32(2 * xs[base + i * ld + j]) + 1)
    corpus.launch({
        "id": "0004", "kernel": "descriptor_scale_kernel", "ttir": corpus.ttir("descriptor_scale"),
        "grid": [(m + 3) // 4, (n + 7) // 8, 1],
        "params": params("nvTmaDesc x_desc", "*fp32 y_ptr", "i32 M", "i32 N"),
        "args": [{"kind": "desc", "buffer": 0, "offset": base * 4, "dtype": "float32",
                  "shape": [m, n], "strides": [ld, 1], "block": [4, 8]},
                 ptr(1, "float32"), i32(m), i32(n)],
        "buffers": [
            {"id": 0, "before": pack("f", xs), "after": pack("f", xs)},
            {"id": 1, "before": pack("f", y_before), "after": pack("f", y_after)},
        ],
    }, "user")

    # 0005: softmax of 5 rows of 300 (rows 320 apart), persistent over 3 programs.
    rows, cols, stride = 5, 300, 320
    inp = [f32(rng.uniform(-6, 6)) for _ in range(rows * stride)]
    out_before = [f32(rng.uniform(-1, 1)) for _ in range(rows * stride)]
    out_after = list(out_before)
    for r in range(rows):
        row = inp[r * stride:r * stride + cols]
        top = max(row)
        exps = [math.exp(v - top) for v in row]
        total = sum(exps)
        out_after[r * stride:r * stride + cols] = [f32(e / total) for e in exps]
    corpus.launch({
        "id": "0005", "kernel": "softmax_kernel", "ttir": corpus.ttir("softmax"), "grid": [3, 1, 1],
        "params": params("*fp32 output_ptr", "*fp32 input_ptr", "i32 input_row_stride",
                         "i32 output_row_stride", "i32 n_rows", "i32 n_cols", "constexpr BLOCK_SIZE"),
        "args": [ptr(0, "float32"), ptr(1, "float32"), i32(stride), i32(stride), i32(rows), i32(cols)],
        "buffers": [
            {"id": 0, "before": pack("f", out_before), "after": pack("f", out_after)},
            {"id": 1, "before": pack("f", inp), "after": pack("f", inp)},
        ],
    }, "persistent_reduction")

    # 0006: layer norm of 4 rows of 300 (two 256-wide blocks each), eps an f32 scalar.
    rows, n, eps = 4, 300, f32(1e-5)
    xs = [f32(rng.gauss(0.5, 2)) for _ in range(rows * n)]
    w = [f32(rng.uniform(0.5, 1.5)) for _ in range(n)]
    b = [f32(rng.uniform(-0.5, 0.5)) for _ in range(n)]
    ys, means, rstds = [], [], []
    for r in range(rows):
        row = xs[r * n:(r + 1) * n]
        mean = sum(row) / n
        var = sum((v - mean) ** 2 for v in row) / n
        rstd = 1 / math.sqrt(var + eps)
        means.append(f32(mean))
        rstds.append(f32(rstd))
        ys += [f32((v - mean) * rstd * wi + bi) for v, wi, bi in zip(row, w, b)]
    zeros = lambda count: pack("f", [0.0] * count)
    corpus.launch({
        "id": "0006", "kernel": "_layer_norm_fwd_fused", "ttir": corpus.ttir("layer_norm"),
        "grid": [rows, 1, 1],
        "params": params("*fp32 X", "*fp32 Y", "*fp32 W", "*fp32 B", "*fp32 Mean", "*fp32 Rstd",
                         "i32 stride", "i32 N", "fp32 eps", "constexpr BLOCK_SIZE"),
        "args": [ptr(i, "float32") for i in range(6)] + [i32(n), i32(n), fp32(eps)],
        "buffers": [
            {"id": 0, "before": pack("f", xs), "after": pack("f", xs)},
            {"id": 1, "before": zeros(rows * n), "after": pack("f", ys)},
            {"id": 2, "before": pack("f", w), "after": pack("f", w)},
            {"id": 3, "before": pack("f", b), "after": pack("f", b)},
            {"id": 4, "before": zeros(rows), "after": pack("f", means)},
            {"id": 5, "before": zeros(rows), "after": pack("f", rstds)},
        ],
    }, "reduction")

    # 0007: f16 arithmetic, every op rounded to f16 (nine planes of n results).
    n = 300
    xh = [f16(rng.uniform(-2, 2)) for _ in range(n)]
    yh = [f16(rng.uniform(-2, 2)) for _ in range(n)]
    zh = [f16(rng.uniform(-2, 2)) for _ in range(n)]
    planes = [
        [f16(a + b) for a, b in zip(xh, yh)],
        [f16(a - b) for a, b in zip(xh, yh)],
        [f16(a * b) for a, b in zip(xh, yh)],
        [f16(float(Fraction(a) * Fraction(b) + Fraction(c))) for a, b, c in zip(xh, yh, zh)],
        [max(a, b) for a, b in zip(xh, yh)],
        [min(a, b) for a, b in zip(xh, yh)],
        [f16(0.0 - abs(a)) for a in xh],
        [c if a < b else b for a, b, c in zip(xh, yh, zh)],
        [f16(f16(f16(f16(a * b) + c) * b) - a) for a, b, c in zip(xh, yh, zh)],
    ]
    corpus.launch({
        "id": "0007", "kernel": "fp16_arith_kernel", "ttir": corpus.ttir("fp16_arith"),
        "grid": [2, 1, 1],
        "params": params("*fp16 X", "*fp16 Y", "*fp16 Z", "*fp16 OUT", "i32 n_elements",
                         "constexpr BLOCK"),
        "args": [ptr(0, "float16"), ptr(1, "float16"), ptr(2, "float16"), ptr(3, "float16"), i32(n)],
        "buffers": [
            {"id": 0, "before": pack("e", xh), "after": pack("e", xh)},
            {"id": 1, "before": pack("e", yh), "after": pack("e", yh)},
            {"id": 2, "before": pack("e", zh), "after": pack("e", zh)},
            {"id": 3, "before": pack("e", [0.0] * 9 * n), "after": pack("e", sum(planes, []))},
        ],
    }, "pointwise")

    # 0008: argmax and max of 6 rows of 400 (i32 and f32 outputs).
    rows, n = 6, 400
    xs = [f32(rng.uniform(-100, 100)) for _ in range(rows * n)]
    index = [max(range(n), key=lambda j: xs[r * n + j]) for r in range(rows)]
    corpus.launch({
        "id": "0008", "kernel": "argmax_kernel", "ttir": corpus.ttir("argmax"), "grid": [rows, 1, 1],
        "params": params("*fp32 x_ptr", "*i32 out_ptr", "*fp32 max_ptr", "i32 stride",
                         "i32 n_cols", "constexpr BLOCK"),
        "args": [ptr(0, "float32"), ptr(1, "int32"), ptr(2, "float32"), i32(n), i32(n)],
        "buffers": [
            {"id": 0, "before": pack("f", xs), "after": pack("f", xs)},
            {"id": 1, "before": pack("i", [-1] * rows), "after": pack("i", index)},
            {"id": 2, "before": pack("f", [0.0] * rows),
             "after": pack("f", [xs[r * n + index[r]] for r in range(rows)])},
        ],
    }, "reduction")

    # 0009: inclusive sums within each 256-wide block (scan.ttir's first kernel).
    n = 600
    xs = [f32(rng.uniform(-1, 1)) for _ in range(n)]
    sums = []
    for start in range(0, n, 256):
        total = 0.0
        for v in xs[start:start + 256]:
            total += v
            sums.append(f32(total))
    scan = corpus.ttir("scan")
    corpus.launch({
        "id": "0009", "kernel": "cumsum_kernel", "ttir": scan, "grid": [3, 1, 1],
        "params": params("*fp32 x_ptr", "*fp32 y_ptr", "i32 n", "constexpr BLOCK"),
        "args": [ptr(0, "float32"), ptr(1, "float32"), i32(n)],
        "buffers": [
            {"id": 0, "before": pack("f", xs), "after": pack("f", xs)},
            {"id": 1, "before": pack("f", [0.0] * n), "after": pack("f", sums)},
        ],
    }, "scan")

    # 0010: the same TTIR's second kernel: suffix maxima of 8 rows of 64 distinct i32 and their
    # indices (columns 64..127 of each 128-wide row).
    stride = 128
    xs, ys = [], []
    for r in range(8):
        row = rng.sample(range(-1000, 1000), 64) + [rng.randrange(-9, 9) for _ in range(64)]
        xs += row
        out = [0] * 128
        for c in range(64):
            best = max(range(c, 64), key=lambda j: row[j])
            out[c], out[64 + c] = row[best], best
        ys += out
    corpus.launch({
        "id": "0010", "kernel": "row_suffix_max_kernel", "ttir": scan, "grid": [1, 1, 1],
        "params": params("*i32 x_ptr", "*i32 y_ptr", "i32 stride", "constexpr ROWS"),
        "args": [ptr(0, "int32"), ptr(1, "int32"), i32(stride)],
        "buffers": [
            {"id": 0, "before": pack("i", xs), "after": pack("i", xs)},
            {"id": 1, "before": pack("i", [0] * 8 * stride), "after": pack("i", ys)},
        ],
    }, "scan")
    return corpus


INLINE_ASM_TTIR = """module {
  tt.func public @cvt_kernel(%ptr: !tt.ptr<f32>) attributes {noinline = false} {
    %x = tt.load %ptr : !tt.ptr<f32>
    %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : f32 -> f32
    tt.store %ptr, %y : !tt.ptr<f32>
    tt.return
  }
}
"""


def broken_corpus(root):
    """Launches each failing one way (README "Self-checks"); BUILD.bazel lists what each must say."""
    rng = random.Random(SEED + 1)
    corpus = Corpus(root, "the runner's self-check: each launch fails at a known stage")

    def add(launch_id, edit=None, n=1024, family="pointwise"):
        record = vector_add_record(corpus, rng, launch_id, n, out_tail=0)
        if edit:
            edit(record)
        corpus.launch(record, family)

    def wrong_value(record):  # out[5] one more than x + y
        out = record["buffers"][2]
        values = unpack("f", out["after"])
        values[5] += 1.0
        out["after"] = pack("f", values)
    add("b001", wrong_value)

    def wrong_poisoned(record):  # unchanged output, its poisoned launch expected wrong at 7
        out = record["buffers"][2]
        out["before"] = out["after"]
        values = unpack("f", out["after"])
        values[7] = -values[7] - 1.0
        out["poisoned_after"], out["fill"] = pack("f", values), 255
    add("b002", wrong_poisoned)

    def missing_blob(record):
        record["buffers"][1]["before_path"] = "blobs/%s.bin" % ("0" * 24)
    add("b003", missing_blob)

    def short_blob(record):
        record["buffers"][0]["nbytes"] = len(record["buffers"][0]["before"]) + 4
    add("b004", short_blob)

    def bad_value(record):
        record["args"][3]["value"] = "1024"
    add("b005", bad_value)

    def missing_arg(record):
        del record["args"][3]
    add("b006", missing_arg)

    corpus.launch({
        "id": "b007", "kernel": "cvt_kernel", "ttir": corpus.ttir(text=INLINE_ASM_TTIR),
        "grid": [1, 1, 1], "params": params("*fp32 ptr"), "args": [ptr(0, "float32")],
        "buffers": [{"id": 0, "before": pack("f", [1.0]), "after": pack("f", [1.0])}],
    }, "user")

    def past_the_end(record):  # n = 1034 elements into a 1024-element output: 40 bytes over
        record["args"][3]["value"] = 1034
        for buffer in record["buffers"][:2]:
            buffer["before"] = buffer["after"] = buffer["before"] + pack("f", [1.0] * 10)
        record["grid"] = [2, 1, 1]
    add("b008", past_the_end)

    def other_kernel(record):
        record["kernel"] = "not_add_kernel"
    add("b009", other_kernel)

    def bad_bits(record):
        record["args"][3] = {"kind": "scalar", "type": "f32", "bits": "0x123456789", "value": 1.0}
    add("b010", bad_bits)

    def wider_type(record):
        record["args"][3] = {"kind": "scalar", "type": "i64", "value": 1024}
    add("b011", wider_type)

    # A record that is not JSON.
    add("b013")
    corpus.files["launches/b013.json"] = b'{"id": "b013", "kernel": "add_kernel", "grid": [1, 1'

    # A kernel reading and writing far past its buffers (n = 2^24 over 4 KiB ones) until it
    # faults: the launch's process dies, the replay goes on.
    def far_past_the_end(record):
        record["args"][3]["value"] = 1 << 24
        record["grid"] = [1 << 14, 1, 1]
    add("b014", far_past_the_end)

    # In the manifest but not in the slice: neither compiled nor replayed.
    record = vector_add_record(corpus, rng, "b012", 64)
    record.update(kernel="softmax_kernel", ttir=corpus.ttir("softmax"))
    corpus.launch(record, "persistent_reduction")
    return corpus


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.environ.get("BUILD_WORKSPACE_DIRECTORY", "."),
                        help="the workspace (kernels/triton is read from it)")
    parser.add_argument("--out", help="the folder of good/ and broken/ (default: this one's)")
    options = parser.parse_args()
    out = options.out or os.path.join(options.root, "tests", "triton_replay", "synthetic")
    for name, make in [("good", good_corpus), ("broken", broken_corpus)]:
        corpus = make(options.root)
        corpus.write(os.path.join(out, name))
        print("%s: %d launches, %d files" % (os.path.join(out, name), len(corpus.launches),
                                             len(corpus.files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
