"""Self-test of everything in triton_capture that needs no GPU, torch or triton.

    python3 tools/triton_capture/selftest.py [--no-timing]

Checks TTIR signature parsing and the write analysis on the repo's kernels/triton/*.ttir, the
mapping of launch arguments onto TTIR arguments (constexprs, integers specialized to 1, tuples,
host tensor descriptors), float-bit encoding, family classification, record validation, record /
manifest writing and reading back, blob dedupe, tar.xz packing with the size limit, and the
supervisor (worker crash, hang, failure, restart) with a fake worker process.

Run as ``python3 -m triton_capture.selftest --work-dir ...`` it *is* that fake worker.
"""

import contextlib
import io
import json
import os
import sys
import tempfile
import time
import traceback
import types

if __package__ in (None, ""):  # run as a script: import the package from tools/
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    sys.path.insert(0, os.path.dirname(_here))

from triton_capture import argmap, capture, families, record  # noqa: E402
from triton_capture.ttir_signature import (TTIRParseError, parse_public_func,  # noqa: E402
                                           signature_summary)
from triton_capture.ttir_writes import analyze_writes, strip_locs  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = os.path.join(REPO, "kernels", "triton")


def _ttir(name: str) -> str:
    with open(os.path.join(KERNELS, name), "r", encoding="utf-8") as f:
        return f.read()


# A kernel with a host tensor descriptor, printed the way Triton 3.6 prints TTIR (name locations).
HOST_DESC_TTIR = """#loc = loc("/tmp/k (1).py":10:0)
module {
  tt.func public @attn_host(%sm_scale: f32 loc("sm_scale"(#loc)), %M_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("M_ptr"(#loc)), %desc_q: !tt.tensordesc<tensor<64x64xf16>> loc("desc_q"(#loc)), %desc_q_0: i32 loc("desc_q"(#loc)), %desc_q_1: i32 loc("desc_q"(#loc)), %desc_q_2: i64 loc("desc_q"(#loc)), %desc_q_3: i64 loc("desc_q"(#loc)), %N_CTX: i32 {tt.divisibility = 16 : i32} loc("N_CTX"(#loc))) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32 loc(#loc1)
    %q = tt.descriptor_load %desc_q[%c0_i32, %c0_i32] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16> loc(#loc2)
    tt.descriptor_store %desc_q[%c0_i32, %c0_i32], %q : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16> loc(#loc3)
    tt.print " x: (" {hex = false, isSigned = array<i32: 0>} : %N_CTX : i32 loc(#loc3)
    tt.return loc(#loc4)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
"""

# An index buffer and an output pointer carried together by a loop; only the output is stored to.
INDEX_LOOP_TTIR = """module {
  tt.func public @gather_loop(%idx_ptr: !tt.ptr<i64>, %src_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %n: i32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%pi = %idx_ptr, %po = %out_ptr) -> (!tt.ptr<i64>, !tt.ptr<f32>)  : i32 {
      %k = tt.load %pi : !tt.ptr<i64>
      %s = tt.addptr %src_ptr, %k : !tt.ptr<f32>, i64
      %v = tt.load %s : !tt.ptr<f32>
      tt.store %po, %v : !tt.ptr<f32>
      %pi2 = tt.addptr %pi, %c1 : !tt.ptr<i64>, i32
      %po2 = tt.addptr %po, %c1 : !tt.ptr<f32>, i32
      scf.yield %pi2, %po2 : !tt.ptr<i64>, !tt.ptr<f32>
    }
    %r = "tt.reduce"(%n) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %m = arith.addi %a, %b : i32
      tt.reduce.return %m : i32
    }) : (i32) -> i32
    %w:1 = scf.while (%p = %0#1) : (!tt.ptr<f32>) -> (!tt.ptr<f32>) {
      %c = arith.cmpi slt, %r, %n : i32
      scf.condition(%c) %p : !tt.ptr<f32>
    } do {
    ^bb0(%q: !tt.ptr<f32>):
      %q2 = tt.addptr %q, %c1 : !tt.ptr<f32>, i32
      scf.yield %q2 : !tt.ptr<f32>
    }
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %w#0, %v0 : (!tt.ptr<f32>, f32) -> f32
    tt.return
  }
}
"""


class FakeTensor:
    def __init__(self, tag):
        self.tag = tag


class FakeDesc:
    def __init__(self, base, shape, strides, block_shape):
        self.base, self.shape, self.strides, self.block_shape = base, shape, strides, block_shape


# ----------------------------------------------------------------------------------------------


def test_parse_repo_ttir():
    names = sorted(n for n in os.listdir(KERNELS) if n.endswith(".ttir"))
    assert len(names) >= 20, names
    for n in names:
        f = parse_public_func(_ttir(n))
        assert f.args and f.body.strip(), n
        assert all(a.kind in ("ptr", "desc", "scalar") for a in f.args), (n, signature_summary(f))

    f = parse_public_func(_ttir("descriptor_scale.ttir"))
    assert f.name == "descriptor_scale_kernel"
    assert signature_summary(f) == ["desc:f32[4x8]", "ptr:f32", "scalar:i32", "scalar:i32"], signature_summary(f)
    assert f.args[0].type == "!tt.tensordesc<tensor<4x8xf32>>" and f.args[0].block == [4, 8]
    assert f.args[1].attrs == {"tt.divisibility": "16"}

    f = parse_public_func(_ttir("vector_add_hinted.ttir"))
    assert [a.name for a in f.args] == ["x_ptr", "y_ptr", "output_ptr", "n_elements"]
    assert [a.attrs.get("tt.divisibility") for a in f.args] == ["16", "16", "16", None]
    assert "tcpu.hints" not in f.body.split("\n")[0] or True

    f = parse_public_func(_ttir("vector_add.ttir"))  # arguments carry loc("file":line:col)
    assert signature_summary(f) == ["ptr:f32", "ptr:f32", "ptr:f32", "scalar:i32"]

    f = parse_public_func(_ttir("fp8_scale.ttir"))
    assert [a.elem for a in f.args] == ["f8E4M3FN", "f32", "f8E5M2", "f16", "i32"]


def test_parse_host_desc_and_errors():
    f = parse_public_func(HOST_DESC_TTIR)
    assert f.name == "attn_host"
    assert signature_summary(f) == ["scalar:f32", "ptr:f32", "desc:f16[64x64]", "scalar:i32", "scalar:i32",
                                    "scalar:i64", "scalar:i64", "scalar:i32"], signature_summary(f)
    assert "tt.return" in f.body and "attributes" not in f.body
    try:
        parse_public_func("module {\n  tt.func private @f() {\n  }\n}")
    except TTIRParseError:
        pass
    else:
        raise AssertionError("a module without a public function must not parse")
    assert strip_locs('a loc("x(1).py":1:2) b loc(callsite(#loc1 at #loc2)) c') == "a  b  c"


def test_write_analysis():
    def written(ttir):
        f = parse_public_func(ttir)
        w = analyze_writes(f)
        ptrs = [a for a in f.args if a.kind in ("ptr", "desc")]
        return ({a.name for a in ptrs if w.may_write(a.index)},
                {a.name for a in ptrs if w.only_atomic(a.index)})

    assert written(_ttir("vector_add.ttir")) == ({"output_ptr"}, set())
    assert written(_ttir("layer_norm_bwd_dx.ttir")) == ({"DX", "DW", "DB", "Lock"}, {"Lock"})
    assert written(_ttir("descriptor_scale.ttir")) == ({"y_ptr"}, set())  # x_desc is only loaded
    assert written(_ttir("attention_fwd.ttir"))[0] == {"M", "desc_o"}
    assert written(_ttir("matmul_splitk_i8.ttir")) == ({"c_ptr"}, {"c_ptr"})
    assert written(_ttir("histogram.ttir"))[0] == {"all_ptr", "valid_ptr"}
    assert written(HOST_DESC_TTIR)[0] == {"desc_q"}
    # the index buffer rides in the same loop as the output pointer but is never stored to
    assert written(INDEX_LOOP_TTIR) == ({"out_ptr"}, set()), written(INDEX_LOOP_TTIR)


def test_float_bits():
    fb, hx = argmap.float_bits, argmap.bits_hex
    assert hx("f32", fb("f32", 0.5)) == "0x3f000000"
    assert hx("f32", fb("f32", -2.0)) == "0xc0000000"
    assert hx("f32", fb("f32", 0.1)) == "0x3dcccccd"  # rounded to nearest
    assert hx("f32", fb("f32", 1e300)) == "0x7f800000" and hx("f32", fb("f32", -1e300)) == "0xff800000"
    assert hx("f32", fb("f32", float("nan"))) == "0x7fc00000"
    assert hx("f16", fb("f16", 1.0)) == "0x3c00" and hx("f16", fb("f16", 65504.0)) == "0x7bff"
    assert hx("f16", fb("f16", 1e6)) == "0x7c00" and hx("f16", fb("f16", -1e6)) == "0xfc00"
    assert hx("bf16", fb("bf16", 1.0)) == "0x3f80"
    assert hx("bf16", fb("bf16", 1.00390625)) == "0x3f80"  # tie -> even
    assert hx("bf16", fb("bf16", 1.01171875)) == "0x3f82"  # tie -> even (up)
    assert hx("bf16", fb("bf16", 1.0039064)) == "0x3f81"  # just above the tie
    assert hx("bf16", fb("bf16", -0.0)) == "0x8000"
    assert hx("f64", fb("f64", 1.0)) == "0x3ff0000000000000"
    assert argmap.to_signed(2 ** 63, 64) == -2 ** 63 and argmap.to_signed(2 ** 32 - 1, 32) == -1
    assert argmap.to_signed(True, 1) == 1 and argmap.to_signed(5, 8) == 5
    e = argmap.encode_scalar("f32", 0.125)
    assert e == {"kind": "scalar", "type": "f32", "bits": "0x3e000000", "value": 0.125}, e
    assert argmap.encode_scalar("i64", 2 ** 64 - 1) == {"kind": "scalar", "type": "i64", "value": -1}
    assert argmap.encode_scalar("i1", True)["value"] == 1
    assert argmap.encode_scalar("f32", float("inf"))["value"] == "inf"


def test_arg_mapping():
    f = parse_public_func(HOST_DESC_TTIR)
    q = FakeTensor("q")
    m = FakeTensor("m")
    desc = FakeDesc(q, [512, 64], [64, 1], [64, 64])
    sig = [("sm_scale", "fp32"), ("M_ptr", "*fp32"), ("desc_q", "tensordesc<fp16[64, 64]>"),
           ("N_CTX", "i32"), ("HEAD_DIM", "constexpr"), ("one", "constexpr")]
    consts = {(4,): 64, (5,): 1}
    params, planned = argmap.plan_launch(sig, consts, [0.125, m, desc, 256, 64, 1], f.args)
    assert [p.kind for p in planned] == ["scalar", "ptr", "desc", "scalar", "scalar", "scalar", "scalar", "scalar"]
    assert [p.value for p in planned if p.role] == [512, 64, 64, 1]
    assert planned[1].value is m and planned[2].value is desc and planned[7].value == 256
    assert params[4] == {"name": "HEAD_DIM", "type": "constexpr", "constexpr": True, "value": 64}
    assert params[0]["value"] == 0.125 and "value" not in params[1]

    # an integer specialized to 1 is a constant, not a TTIR argument (Triton's JIT rule) ...
    vec = parse_public_func(_ttir("vector_add.ttir"))
    x, y, o = FakeTensor("x"), FakeTensor("y"), FakeTensor("o")
    sig = [("x_ptr", "*fp32"), ("y_ptr", "*fp32"), ("output_ptr", "*fp32"), ("stride", "constexpr"),
           ("n_elements", "i32"), ("BLOCK_SIZE", "constexpr")]
    params, planned = argmap.plan_launch(sig, {(3,): 1, (5,): 1024}, [x, y, o, 1, 98432, 1024], vec.args)
    assert [p.value for p in planned] == [x, y, o, 98432]
    # ... but if a constant still is an argument of the TTIR (typed i32), the second rule maps it
    sig2 = [("x_ptr", "*fp32"), ("y_ptr", "*fp32"), ("output_ptr", "*fp32"), ("n_elements", "i32")]
    params, planned = argmap.plan_launch(sig2, {(3,): 1}, [x, y, o, 1], vec.args)
    assert planned[3].value == 1
    # a mismatch is an error, never a silent misrecord
    for bad_sig, vals in ((sig2[:3], [x, y, o]), ([("a", "*fp32"), ("b", "fp32"), ("c", "*fp32"), ("n", "i32")],
                                                  [x, 1.0, o, 3])):
        try:
            argmap.plan_launch(bad_sig, {}, vals, vec.args)
        except argmap.MappingError:
            pass
        else:
            raise AssertionError(f"{bad_sig} must not map onto vector_add")
    # tuple parameters flatten in order
    tup = parse_public_func("module {\n tt.func public @t(%a: !tt.ptr<f32>, %b: i32, %c: i64) {\n tt.return\n }\n}")
    params, planned = argmap.plan_launch([("pair", ("*fp32", "i32")), ("c", "i64")], {}, [(x, 5), 2 ** 40], tup.args)
    assert [p.leaf.name for p in planned] == ["pair[0]", "pair[1]", "c"] and params[0]["type"] == ["*fp32", "i32"]


def test_families():
    c = families.classify
    poi = "tt.func public @k() {\n  %0 = arith.addf %a, %b : f32\n}"
    assert c("triton_poi_fused_add_0", poi) == "pointwise"
    assert c("triton_red_fused_sum_0", "%1 = \"tt.reduce\"(%0)") == "reduction"
    assert c("triton_per_fused__softmax_0", "") == "persistent_reduction"
    assert c("triton_for_fused_0", "") == "pointwise"
    assert c("triton_per_fused_cumsum_0", '%1 = "tt.scan"(%0) <{axis = 1 : i32, reverse = false}>') == "scan"
    assert c("triton_per_fused_sort_0", "") == "sort"
    assert c("triton_per_fused_0", "", "tmp5, tmp6, = triton_helpers.sort_with_index(tmp3, tmp4, None, 1)") == "sort"
    assert c("triton_poi_fused_embedding_0", "") == "gather_scatter"
    assert c("triton_poi_fused_0", "%3 = tt.atomic_rmw fadd, relaxed, gpu, %1, %2") == "gather_scatter"
    assert c("triton_poi_fused_index_add_1", "") == "gather_scatter"
    assert c("triton_tem_fused_mm_0", "") == "template_mm"
    assert c("triton_tem_fused_addmm_relu_0", "") == "template_mm"
    assert c("triton_tem_fused_bmm_0", "") == "template_bmm"
    assert c("triton_tem_fused_convolution_0", "") == "template_conv"
    assert c("triton_tem_fused_0", "", "    SPARSE_KV_BLOCK_SIZE : tl.constexpr = 128") == "flex_attention"
    assert c("triton_tem_fused_0", "", "", "template_conv") == "template_conv"
    assert c("add_kernel", _ttir("vector_add.ttir")) == "user"
    assert c("cumsum_kernel", _ttir("scan.ttir")) == "scan"
    assert c("sort_kernel", "") == "sort"
    assert c("gather_kernel", "%3 = tt.gather %1[%2] {axis = 1 : i32}") == "gather_scatter"
    assert c("histogram_kernel", _ttir("histogram.ttir")) == "user"
    assert c("matmul_splitk_kernel", _ttir("matmul_splitk_i8.ttir")) == "user"
    assert set(families.FAMILIES) >= {c("x", "")}


# ----------------------------------------------------------------------------------------------
# Records, manifest, packing


def _fake_record(work: record.WorkDir, name: str, seed: int):
    weights = bytes(range(256)) * 4  # the same in every workload: stored once
    before_out = bytes(64)
    after_out = bytes((seed + i) % 256 for i in range(64))
    text = _ttir("vector_add.ttir")
    return {
        "id": "",
        "kernel": "add_kernel",
        "ttir": work.ttir(text),
        "grid": [1, 1, 1],
        "num_warps": 4,
        "num_stages": 3,
        "params": [{"name": "x_ptr", "type": "*fp32", "constexpr": False},
                   {"name": "y_ptr", "type": "*fp32", "constexpr": False},
                   {"name": "output_ptr", "type": "*fp32", "constexpr": False},
                   {"name": "n_elements", "type": "i32", "constexpr": False, "value": 16},
                   {"name": "BLOCK_SIZE", "type": "constexpr", "constexpr": True, "value": 1024}],
        "args": [{"kind": "ptr", "buffer": 0, "offset": 0, "dtype": "float32"},
                 {"kind": "ptr", "buffer": 0, "offset": 512, "dtype": "float32"},
                 {"kind": "ptr", "buffer": 1, "offset": 0, "dtype": "float32"},
                 {"kind": "scalar", "type": "i32", "value": 16}],
        "buffers": [{"id": 0, "nbytes": len(weights), "before": work.blob(weights), "after": work.blob(weights),
                     "changed": False},
                    {"id": 1, "nbytes": 64, "before": work.blob(before_out), "after": work.blob(after_out),
                     "changed": before_out != after_out}],
    }


def test_validate_record():
    with tempfile.TemporaryDirectory() as tmp:
        work = record.WorkDir(tmp)
        rec = _fake_record(work, "w", 1)
        assert record.validate_record(rec) == [], record.validate_record(rec)
        bad = json.loads(json.dumps(rec))
        bad["args"][1]["offset"] = 4096
        bad["args"][3] = {"kind": "scalar", "type": "f32", "bits": "0x3f00", "value": 0.5}
        bad["buffers"][1]["poisoned"] = {"fill": 255, "after": rec["buffers"][1]["after"]}
        problems = record.validate_record(bad)
        assert len(problems) == 3, problems


def test_write_pack_read():
    with tempfile.TemporaryDirectory() as tmp:
        work = record.WorkDir(os.path.join(tmp, "work"))
        out = os.path.join(tmp, "out")
        for i, name in enumerate(["alpha", "beta", "gamma"]):
            wr = work.open_workload(name)
            for k in range(2):
                wr.add_record(_fake_record(work, name, 10 * i + k), "user")
            wr.add_skip("big_kernel", "size cap: 9437184 buffer bytes > 4194304")
            wr.close()
            work.set_state(name, {"status": "done", "seconds": 1.5, "launches": 2, "skipped": 1})
        with open(os.path.join(work.workload_dir("beta"), "index.jsonl"), "a") as f:
            f.write('{"type": "launch", "file": "torn')  # a worker killed mid-line
        work.set_state("gamma", {"status": "error", "error": "RuntimeError: boom"})
        wl = [{"name": n, "description": n + " workload", "family_hint": "user"} for n in ("alpha", "beta", "gamma", "delta")]
        made = {"torch": "2.11.0", "triton": "3.6.0", "cuda": "13.0", "gpu": "NVIDIA H200", "python": "3.12.3",
                "command": "python3 -m triton_capture --out x --workloads all"}
        summary = record.pack(work, out, wl, made, 4194304, log=lambda m: None)
        assert summary["launches"] == 6 and summary["skipped"] == 3, summary
        corpus = record.Corpus(out)
        man = corpus.manifest
        assert man["format"] == 1 and man["made_with"] == made and man["size_cap_bytes"] == 4194304
        assert [w["name"] for w in man["workloads"]] == ["alpha", "beta", "gamma", "delta"]
        assert [w.get("error") for w in man["workloads"]] == [None, None, "RuntimeError: boom", "not run"]
        assert [w["launches"] for w in man["workloads"]] == [2, 2, 2, 0]
        assert [l["id"] for l in man["launches"]] == ["0001", "0002", "0003", "0004", "0005", "0006"]
        assert all(l["family"] == "user" and l["record"] == f"launches/{l['id']}.json" for l in man["launches"])
        assert man["skipped"][0] == {"workload": "alpha", "kernel": "big_kernel",
                                     "reason": "size cap: 9437184 buffer bytes > 4194304"}
        names = corpus.names()
        ttirs = [n for n in names if n.startswith("ttir/")]
        blobs = [n for n in names if n.startswith("blobs/")]
        assert len(ttirs) == 1 and len(blobs) == 1 + 1 + 6, (ttirs, blobs)  # weights, zeros, 6 outputs
        for l in man["launches"]:
            rec = corpus.record(l["id"])
            assert rec["id"] == l["id"] and record.validate_record(rec) == []
            assert l["buffer_bytes"] == sum(b["nbytes"] for b in rec["buffers"])
            for b in rec["buffers"]:
                for k in ("before", "after"):
                    data = corpus.read(b[k])
                    assert len(data) == b["nbytes"] and record.blob_name(data) == b[k]
        assert corpus.read(ttirs[0]).decode() == _ttir("vector_add.ttir")

        # the pack size cap leaves single launches out, listed as skipped
        capped = os.path.join(tmp, "capped")
        big = max(l["buffer_bytes"] for l in record.Corpus(out).manifest["launches"])
        capped_summary = record.pack(work, capped, wl, made, 4194304, log=lambda m: None,
                                     pack_size_cap_bytes=big - 1)
        man = record.Corpus(capped).manifest
        assert man["size_cap_bytes"] == big - 1 and capped_summary["launches"] < 6, capped_summary
        assert all(l["buffer_bytes"] <= big - 1 for l in man["launches"])
        assert capped_summary["launches"] + capped_summary["skipped"] == 6 + 3, capped_summary
        assert any(s["reason"].startswith("pack size cap: ") for s in man["skipped"]), man["skipped"]

        # the size limit leaves whole workloads out, last first
        small = os.path.join(tmp, "small")
        summary = record.pack(work, small, wl, made, 4194304, max_corpus_bytes=summary["corpus_bytes"] - 1,
                              log=lambda m: None)
        man = record.Corpus(small).manifest
        assert summary["corpus_bytes"] <= os.path.getsize(os.path.join(out, "corpus.tar.xz"))
        errors = [w.get("error", "") for w in man["workloads"]]
        assert "over the corpus size limit" in errors[2] and "over" not in errors[0], errors


# ----------------------------------------------------------------------------------------------
# The launch hook, against a stand-in for torch (bytearrays as device memory)


class _FakeDtype:
    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize

    def __str__(self):
        return "torch." + self.name


class _FakeStorage:
    _next = 1 << 20

    def __init__(self, nbytes):
        self.buf = bytearray(nbytes)
        self.addr = _FakeStorage._next
        _FakeStorage._next += (nbytes + 4095) // 4096 * 4096 + 4096

    def data_ptr(self):
        return self.addr

    def nbytes(self):
        return len(self.buf)


class _HostBytes:
    def __init__(self, data):
        self.data = bytes(data)

    def numpy(self):
        return self

    def tobytes(self):
        return self.data

    def __eq__(self, value):
        return types.SimpleNamespace(all=lambda: all(b == value for b in self.data))


def _fake_torch():
    import struct as st

    class Tensor:
        def __init__(self, storage=None, offset=0, nbytes=0, dtype=None):
            self.storage, self.offset, self.nb, self.dtype = storage, offset, nbytes, dtype
            self.device = types.SimpleNamespace(type="cuda")

        def untyped_storage(self):
            return self.storage

        def data_ptr(self):
            return self.storage.addr + self.offset

        def set_(self, storage, offset, size, stride):
            self.storage, self.offset, self.nb = storage, offset, size[0]
            return self

        def cpu(self):
            return _HostBytes(self.storage.buf[self.offset:self.offset + self.nb])

        def copy_(self, host):
            self.storage.buf[self.offset:self.offset + self.nb] = host.data

        def fill_(self, value):
            self.storage.buf[self.offset:self.offset + self.nb] = bytes([value]) * self.nb

        # test helpers: float32 contents
        def floats(self):
            return list(st.unpack(f"<{self.nb // 4}f", bytes(self.storage.buf[self.offset:self.offset + self.nb])))

        def set_floats(self, vals):
            self.storage.buf[self.offset:self.offset + 4 * len(vals)] = st.pack(f"<{len(vals)}f", *vals)

    float32 = _FakeDtype("float32", 4)
    torch = types.ModuleType("torch")
    torch.Tensor = Tensor
    torch.uint8 = _FakeDtype("uint8", 1)
    torch.float32 = float32
    torch.empty = lambda n, dtype=None, device=None: Tensor(dtype=dtype)
    torch.equal = lambda a, b: a.data == b.data
    torch.no_grad = contextlib.nullcontext
    torch.cuda = types.SimpleNamespace(synchronize=lambda: None, is_current_stream_capturing=lambda: False)

    def tensor(nfloats, share=None, offset=0):
        storage = share.storage if share is not None else _FakeStorage(4 * nfloats)
        return Tensor(storage, offset, 4 * nfloats, float32)

    return torch, tensor


COPY_TTIR = """module {
  tt.func public @copy_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
    %0 = tt.load %x_ptr : !tt.ptr<f32>
    tt.store %out_ptr, %0 : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_hook_with_fake_torch():
    from triton_capture import hook

    saved = sys.modules.get("torch")
    torch, tensor = _fake_torch()
    sys.modules["torch"] = torch
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = record.WorkDir(tmp)
            rec = hook.Recorder(work, size_cap_bytes=1 << 20, log=lambda m: None)

            def kernel(name, ttir, signature, constants):
                return types.SimpleNamespace(name=name, asm={"ttir": ttir}, metadata=types.SimpleNamespace(
                    num_warps=4, num_stages=3), src=types.SimpleNamespace(signature=signature, constants=constants))

            head = (2, 1, 1, 0, 0, None, None, None, None)  # grid, stream, function, metadata, hooks
            add = kernel("add_kernel", _ttir("vector_add.ttir"),
                         {"x_ptr": "*fp32", "y_ptr": "*fp32", "output_ptr": "*fp32", "n_elements": "i32",
                          "BLOCK_SIZE": "constexpr"}, {(4,): 1024})
            calls = []

            def add_launcher(gx, gy, gz, stream, fn, md, lmd, enter, exit_, x, y, out, n, block):
                calls.append(n)
                out.set_floats([a + b for a, b in zip(x.floats()[:n], y.floats()[:n])])

            x, y = tensor(8), tensor(8)
            x.set_floats([float(i) for i in range(8)])
            y.set_floats([0.5] * 8)
            out = tensor(8)
            launch = rec.wrap(add, add_launcher)
            assert rec.wrap(add, add_launcher) is launch
            launch(*head, x, y, out, 8, 1024)  # no workload active: launched, not recorded
            out.set_floats([0.0] * 8)
            rec.begin("w", work.open_workload("w"), "user")
            launch(*head, x, y, out, 8, 1024)
            launch(*head, x, y, out, 8, 1024)  # the same launch again: a duplicate
            rec.bench_depth += 1
            launch(*head, x, y, out, 8, 1024)  # while autotuning: counted only
            rec.bench_depth -= 1
            view = tensor(4, share=x, offset=16)  # a view into x's storage: shares its buffer
            launch(*head, view, y, out, 4, 1024)

            # copy into a buffer that already holds the values: unchanged, so poisoned and relaunched
            cp = kernel("copy_kernel", COPY_TTIR, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"}, {})

            def copy_launcher(gx, gy, gz, stream, fn, md, lmd, enter, exit_, src, dst, n):
                calls.append(("copy", n))
                dst.set_floats(src.floats()[:n])

            a, b = tensor(4), tensor(4)
            a.set_floats([1.0, 2.0, 3.0, 4.0])
            b.set_floats([1.0, 2.0, 3.0, 4.0])
            rec.wrap(cp, copy_launcher)(*head, a, b, 4)
            assert b.floats() == [1.0, 2.0, 3.0, 4.0]  # the workload's state is restored

            # a host tensor descriptor (the kernel does nothing here: nothing changes, nothing poisoned)
            hd = kernel("attn_host", HOST_DESC_TTIR, {"sm_scale": "fp32", "M_ptr": "*fp32",
                                                      "desc_q": "tensordesc<fp16[64, 64]>", "N_CTX": "i32"}, {})
            q = tensor(64 * 64 * 2)
            desc = FakeDesc(q, [128, 64], [64, 1], [64, 64])
            rec.wrap(hd, lambda *a: calls.append("desc"))(*head, 0.125, tensor(128), desc, 128)
            # a mismatch with the TTIR is skipped, not recorded; and the size cap
            bad = kernel("add_kernel", _ttir("vector_add.ttir"),
                         {"x_ptr": "*fp32", "y_ptr": "fp32", "output_ptr": "*fp32", "n_elements": "i32",
                          "BLOCK_SIZE": "constexpr"}, {(4,): 1024})
            rec.wrap(bad, lambda *a: calls.append("bad"))(*head, x, 1.0, out, 8, 1024)
            rec.size_cap = 16
            launch(*head, x, y, out, 3, 1024)
            counters = rec.end()

            assert counters["launches"] == 4 and counters["duplicates"] == 1 and counters["autotune_launches"] == 1
            assert counters["skipped"] == 2 and counters["calls"] == 8, counters
            assert calls.count(8) == 4 and calls.count(("copy", 4)) == 2 and calls.count("desc") == 2, calls
            assert calls.count("bad") == 1 and calls.count(3) == 1, calls
            entries = work.index("w")
            recs = [record.read_json(work.path(e["file"])) for e in entries if e["type"] == "launch"]
            skips = [e["reason"] for e in entries if e["type"] == "skip"]
            assert any("do not match" in r for r in skips) and any(r.startswith("size cap: 96") for r in skips), skips
            for r in recs:
                assert record.validate_record(r) == [], record.validate_record(r)
            r0 = recs[0]
            assert r0["args"][:3] == [{"kind": "ptr", "buffer": i, "offset": 0, "dtype": "float32"} for i in range(3)]
            assert r0["args"][3] == {"kind": "scalar", "type": "i32", "value": 8}
            assert [b["changed"] for b in r0["buffers"]] == [False, False, True]
            assert not any("poisoned" in b for b in r0["buffers"])  # x and y are only read
            assert r0["params"][4] == {"name": "BLOCK_SIZE", "type": "constexpr", "constexpr": True, "value": 1024}
            with open(work.path(r0["buffers"][2]["after"]), "rb") as f:
                import struct
                assert list(struct.unpack("<8f", f.read())) == [i + 0.5 for i in range(8)]
            r1 = recs[1]  # the view: offset 16 into x's storage
            assert r1["args"][0] == {"kind": "ptr", "buffer": 0, "offset": 16, "dtype": "float32"}
            rc = recs[2]
            assert rc["buffers"][1]["changed"] is False and rc["buffers"][1]["poisoned"]["fill"] == 255
            assert rc["buffers"][1]["poisoned"]["after"] == rc["buffers"][1]["before"]
            assert "poisoned" not in rc["buffers"][0]
            rd = recs[3]
            assert [a["kind"] for a in rd["args"]] == ["scalar", "ptr", "desc"] + ["scalar"] * 5
            assert rd["args"][0] == {"kind": "scalar", "type": "f32", "bits": "0x3e000000", "value": 0.125}
            assert rd["args"][2] == {"kind": "desc", "buffer": 1, "offset": 0, "dtype": "float32",
                                     "shape": [128, 64], "strides": [64, 1], "block": [64, 64]}
            assert [a.get("value") for a in rd["args"][3:]] == [128, 64, 64, 1, 128]
            assert [a["type"] for a in rd["args"][3:]] == ["i32", "i32", "i64", "i64", "i32"]
            assert [e["family"] for e in entries if e["type"] == "launch"] == ["user"] * 4
    finally:
        if saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = saved


# ----------------------------------------------------------------------------------------------
# Supervisor, with this module as a fake worker


def fake_worker_main(argv) -> int:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--work-dir")
    ap.add_argument("--size-cap-bytes", type=int)
    ap.add_argument("--compile-threads", type=int)
    ap.add_argument("--any-version", action="store_true")
    ap.add_argument("--tag")
    args = ap.parse_args(argv)
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    work = record.WorkDir(args.work_dir)
    proto.write("@@ready\n")
    for line in sys.stdin:
        cmd = line.split()
        if not cmd or cmd[0] == "EXIT":
            break
        name = cmd[1]
        wr = work.open_workload(name)
        work.set_state(name, {"status": "started"})
        if name.startswith("fake_crash"):
            os._exit(9)
        if name.startswith("fake_hang"):
            time.sleep(3600)
        wr.add_record(_fake_record(work, name, len(name)), "user")
        wr.close()
        failed = name.startswith("fake_error")
        state = {"status": "error" if failed else "done", "launches": 1, "skipped": 0, "seconds": 0.01}
        if failed:
            state["error"] = "AssertionError: planned failure"
        work.set_state(name, state)
        proto.write(f"@@done {name}\n")
    return 0


def test_supervisor():
    names = ["fake_ok_a", "fake_crash", "fake_ok_b", "fake_hang", "fake_error", "fake_ok_c"]
    with tempfile.TemporaryDirectory() as tmp:
        work = record.WorkDir(os.path.join(tmp, "work"))
        args = types.SimpleNamespace(jobs=2, size_cap_bytes=1 << 20, any_version=False, time_budget=0,
                                     workload_timeout=4)
        buf = io.StringIO()
        t0 = time.time()
        with contextlib.redirect_stdout(buf):
            fatal = capture.run_workloads(names, {n: 1.0 for n in names}, work, args,
                                          worker_module="triton_capture.selftest")
        assert fatal == "", fatal
        assert time.time() - t0 < 60
        st = {n: work.state(n) for n in names}
        assert [st[n]["status"] for n in names] == ["done", "error", "done", "error", "error", "done"], st
        assert "died" in st["fake_crash"]["error"] and "timed out" in st["fake_hang"]["error"], st
        out = os.path.join(tmp, "out")
        wl = [{"name": n, "description": "", "family_hint": "user"} for n in names]
        summary = record.pack(work, out, wl, {"command": "test"}, 1 << 20, log=lambda m: None)
        assert summary["launches"] == 4, summary  # the crash and the hang recorded nothing

        # the CLI resumes from the same work dir: nothing to run, only packing
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = capture.main(["--out", os.path.join(tmp, "cli"), "--workloads", "tk_vector_add,tk_cumsum",
                               "--work-dir", work.root, "--pack-only"])
        assert rc == 0, buf.getvalue()
        man = record.Corpus(os.path.join(tmp, "cli")).manifest
        assert [w["name"] for w in man["workloads"]] == ["tk_vector_add", "tk_cumsum"]
        assert man["made_with"]["command"].endswith("--pack-only")


# ----------------------------------------------------------------------------------------------


# Tests whose outcome depends on wall-clock time (the supervisor's workload timeout): run by
# hand, left out under --no-timing (how `bazel test //tools/triton_capture:selftest` runs it:
# a test in CI never depends on the machine's load).
TIMED_TESTS = {"test_supervisor"}


def main(timing: bool) -> int:
    tests = [(n, f) for n, f in globals().items() if n.startswith("test_") and callable(f)
             and (timing or n not in TIMED_TESTS)]
    passed = failed = 0
    for name, fn in tests:
        try:
            fn()
            passed += 1
            print(f"ok      {name}")
        except Exception:
            failed += 1
            print(f"FAILED  {name}")
            traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if "--work-dir" in sys.argv:  # started by capture.run_workloads as a fake worker
        sys.exit(fake_worker_main(sys.argv[1:]))
    sys.exit(main(timing="--no-timing" not in sys.argv[1:]))
