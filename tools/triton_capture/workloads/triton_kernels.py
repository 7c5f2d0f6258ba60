"""Workloads that launch the hand-written kernels of kernels/tutorials.py and kernels/language.py.

Every workload checks its results against torch, so a wrong kernel fails its workload (the
records stay in the corpus; the manifest carries the error).
"""

from . import workload


def _t():
    import torch
    import triton

    from ..kernels import language, tutorials
    return torch, triton, tutorials, language


@workload("tk_vector_add", "tutorial 01: vector add, fp32, a ragged tail", "user", cost=3)
def tk_vector_add(ctx):
    torch, triton, tut, _ = _t()
    ctx.seed(0)
    for n in (98432, 1000):
        x = torch.rand(n, device="cuda")
        y = torch.rand(n, device="cuda")
        out = torch.empty_like(x)
        tut.vector_add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
        ctx.check_close(out, x + y, 0, 0, f"vector add n={n}")


@workload("tk_softmax", "tutorial 02: fused softmax, persistent programs striding over rows", "user", cost=3)
def tk_softmax(ctx):
    torch, triton, tut, _ = _t()
    ctx.seed(0)
    for rows, cols in ((37, 300), (130, 1000)):
        x = torch.randn(rows, cols, device="cuda")
        out = torch.empty_like(x)
        block = triton.next_power_of_2(cols)
        programs = min(rows, 16)
        tut.softmax_persistent_kernel[(programs,)](out, x, x.stride(0), out.stride(0), rows, cols,
                                                   BLOCK=block, NUM_STAGES=2, num_warps=4)
        ctx.check_close(out, torch.softmax(x, dim=1), 1e-5, 1e-4, f"softmax {rows}x{cols}")


@workload("tk_matmul", "tutorial 03: matmul, fp16 and fp8 (e4m3) operands, fp32 accumulation", "user", cost=6)
def tk_matmul(ctx):
    torch, triton, tut, _ = _t()
    ctx.seed(0)
    M, N, K = 192, 160, 96
    bm, bn, bk, gm = 64, 64, 32, 4
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    tut.matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=gm)
    ctx.check_close(c, a.float() @ b.float(), 5e-2, 1e-2, "fp16 matmul")
    if torch.cuda.get_device_capability() < (8, 9) or not hasattr(torch, "float8_e4m3fn"):
        raise RuntimeError("fp8 matmul needs an sm_89+ GPU and torch.float8_e4m3fn")
    a8 = (torch.randn(M, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
    b8_nk = (torch.randn(N, K, device="cuda") * 0.5).to(torch.float8_e4m3fn)
    b8 = b8_nk.T  # [K, N] view, K contiguous (the layout fp8 wgmma wants)
    c8 = torch.empty(M, N, device="cuda", dtype=torch.float16)
    tut.matmul_kernel[grid](a8, b8, c8, M, N, K, a8.stride(0), a8.stride(1), b8.stride(0), b8.stride(1),
                            c8.stride(0), c8.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=gm)
    ctx.check_close(c8, a8.float() @ b8.float(), 5e-2, 1e-2, "fp8 matmul")


@workload("tk_layer_norm", "tutorial 05: layer norm forward, backward dx with the atomic_cas lock, dw/db",
          "user", cost=5)
def tk_layer_norm(ctx):
    torch, triton, tut, _ = _t()
    ctx.seed(0)
    M, N, eps = 64, 200, 1e-5
    x = torch.randn(M, N, device="cuda")
    w = torch.rand(N, device="cuda") + 0.5
    b = torch.randn(N, device="cuda")
    y = torch.empty_like(x)
    mean = torch.empty(M, device="cuda")
    rstd = torch.empty(M, device="cuda")
    tut.layer_norm_fwd_kernel[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=128)
    ref = torch.nn.functional.layer_norm(x, (N,), w, b, eps)
    ctx.check_close(y, ref, 1e-4, 1e-4, "layer norm forward")

    group, block_n = 16, triton.next_power_of_2(N)
    dy = torch.randn(M, N, device="cuda")
    dx = torch.empty_like(x)
    locks = torch.zeros(2 * group, dtype=torch.int32, device="cuda")
    part_dw = torch.zeros(group, N, device="cuda")
    part_db = torch.zeros(group, N, device="cuda")
    tut.layer_norm_bwd_dx_kernel[(M,)](dx, dy, part_dw, part_db, x, w, mean, rstd, locks, x.stride(0), N,
                                       GROUP_SIZE_M=group, BLOCK_SIZE_N=block_n, num_warps=4)
    dw = torch.empty(N, device="cuda")
    db = torch.empty(N, device="cuda")
    tut.layer_norm_bwd_dwdb_kernel[(triton.cdiv(N, 64),)](part_dw, part_db, dw, db, group, N,
                                                         BLOCK_SIZE_M=16, BLOCK_SIZE_N=64)
    xr, wr, br = (t.detach().clone().requires_grad_() for t in (x, w, b))
    torch.nn.functional.layer_norm(xr, (N,), wr, br, eps).backward(dy)
    ctx.check_close(dx, xr.grad, 1e-4, 1e-3, "layer norm dx")
    ctx.check_close(dw, wr.grad, 1e-3, 1e-3, "layer norm dw")
    ctx.check_close(db, br.grad, 1e-3, 1e-3, "layer norm db")


def _attention_reference(torch, q, k, v, causal):
    s = (q.float() @ k.float().transpose(-1, -2)) * (q.shape[-1] ** -0.5)
    if causal:
        n = q.shape[-2]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
    return torch.softmax(s, dim=-1) @ v.float()


def _attention_host_desc(ctx, D, BM, BN, N_CTX, H, num_warps, what):
    """Tutorial 06's forward over host TensorDescriptor arguments, checked against torch."""
    torch, triton, tut, _ = _t()
    from triton.tools.tensor_descriptor import TensorDescriptor

    ctx.seed(0)
    Z = 1
    q, k, v = (torch.randn(Z, H, N_CTX, D, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    m = torch.empty(Z * H * N_CTX, device="cuda", dtype=torch.float32)
    rows = Z * H * N_CTX

    def desc(t, block_rows):
        return TensorDescriptor(t, shape=[rows, D], strides=[D, 1], block_shape=[block_rows, D])

    tut.attn_fwd_host_desc_kernel[(N_CTX // BM, Z * H)](
        D ** -0.5, m, desc(q, BM), desc(k, BN), desc(v, BN), desc(o, BM), N_CTX,
        HEAD_DIM=D, BLOCK_M=BM, BLOCK_N=BN, num_warps=num_warps)
    ctx.check_close(o, _attention_reference(torch, q, k, v, False), 2e-2, 2e-2, what)


@workload("tk_attention_host_desc", "tutorial 06: attention forward with host TensorDescriptor arguments",
          "user", cost=5)
def tk_attention_host_desc(ctx):
    _attention_host_desc(ctx, D=64, BM=64, BN=64, N_CTX=256, H=2, num_warps=4,
                         what="attention (host descriptors)")


@workload("tk_attention_d128", "tutorial 06 at its GPU configuration: 128-wide head, 128x64 query x key "
          "blocks, host TensorDescriptor arguments", "user", cost=5)
def tk_attention_d128(ctx):
    _attention_host_desc(ctx, D=128, BM=128, BN=64, N_CTX=128, H=1, num_warps=8,
                         what="attention (128-wide head)")


@workload("tk_attention_device_desc", "tutorial 06: causal attention forward with tl.make_tensor_descriptor",
          "user", cost=5)
def tk_attention_device_desc(ctx):
    torch, triton, tut, _ = _t()
    ctx.seed(0)

    def alloc(size, alignment, stream):  # global scratch for device-side TMA descriptors
        return torch.empty(size, dtype=torch.int8, device="cuda")

    triton.set_allocator(alloc)
    Z, H, N_CTX, D, BM, BN = 1, 2, 256, 64, 64, 64
    q, k, v = (torch.randn(Z, H, N_CTX, D, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    m = torch.empty(Z * H * N_CTX, device="cuda", dtype=torch.float32)
    tut.attn_fwd_device_desc_kernel[(N_CTX // BM, Z * H)](
        q, k, v, o, m, D ** -0.5, N_CTX, Z * H * N_CTX, HEAD_DIM=D, BLOCK_M=BM, BLOCK_N=BN, num_warps=4)
    ctx.check_close(o, _attention_reference(torch, q, k, v, True), 2e-2, 2e-2, "attention (device descriptors)")


@workload("tk_gather", "tl.gather along the last axis of a tile", "gather_scatter", cost=3)
def tk_gather(ctx):
    torch, triton, _, lang = _t()
    ctx.seed(0)
    rows, C, R = 40, 64, 16
    src = torch.randn(rows, C, device="cuda")
    idx = torch.randint(0, C, (rows, C), device="cuda", dtype=torch.int32)
    out = torch.empty_like(src)
    lang.gather_kernel[(triton.cdiv(rows, R),)](src, idx, out, rows, R=R, C=C)
    ctx.check_close(out, torch.gather(src, 1, idx.long()), 0, 0, "tl.gather")


@workload("tk_sort", "tl.sort of tile rows, ascending and descending", "sort", cost=4)
def tk_sort(ctx):
    torch, triton, _, lang = _t()
    ctx.seed(0)
    rows, C, R = 24, 128, 8
    x = torch.randn(rows, C, device="cuda")
    for desc in (False, True):
        out = torch.empty_like(x)
        lang.sort_kernel[(triton.cdiv(rows, R),)](x, out, rows, R=R, C=C, DESCENDING=desc)
        ctx.check_close(out, torch.sort(x, dim=1, descending=desc).values, 0, 0, f"tl.sort descending={desc}")


@workload("tk_histogram", "tl.histogram of int32 blocks into 32 bins", "user", cost=3)
def tk_histogram(ctx):
    torch, triton, _, lang = _t()
    ctx.seed(0)
    programs, block, bins = 4, 256, 32
    x = torch.randint(0, bins, (programs * block,), device="cuda", dtype=torch.int32)
    out = torch.empty(programs, bins, device="cuda", dtype=torch.int32)
    lang.histogram_kernel[(programs,)](x, out, BLOCK=block, NUM_BINS=bins)
    want = torch.stack([torch.bincount(r.long(), minlength=bins) for r in x.view(programs, block)])
    ctx.check_close(out, want, 0, 0, "tl.histogram")


@workload("tk_cumsum", "tl.cumsum over 4096 lanes, fp32 and int32", "scan", cost=3)
def tk_cumsum(ctx):
    torch, triton, _, lang = _t()
    ctx.seed(0)
    n = 4000
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    lang.cumsum_kernel[(1,)](x, out, n, BLOCK=4096)
    ctx.check_close(out, torch.cumsum(x.double(), 0), 1e-3, 1e-4, "tl.cumsum fp32")
    xi = torch.randint(-100, 100, (n,), device="cuda", dtype=torch.int32)
    outi = torch.empty_like(xi)
    lang.cumsum_kernel[(1,)](xi, outi, n, BLOCK=4096)
    ctx.check_close(outi, torch.cumsum(xi, 0), 0, 0, "tl.cumsum int32")


@workload("tk_random", "tl.rand / tl.randn / tl.randint (philox) and a dropout", "user", cost=3)
def tk_random(ctx):
    torch, triton, _, lang = _t()
    ctx.seed(0)
    n, block = 3000, 1024
    u = torch.empty(n, device="cuda")
    g = torch.empty(n, device="cuda")
    bits = torch.empty(n, device="cuda", dtype=torch.int32)
    lang.random_kernel[(triton.cdiv(n, block),)](u, g, bits, 1234, n, BLOCK=block)
    ctx.check(bool(((u >= 0) & (u < 1)).all()), "tl.rand outside [0, 1)")
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    lang.dropout_kernel[(triton.cdiv(n, block),)](x, out, n, 0.25, 4321, BLOCK=block)
    kept = out != 0
    ctx.check_close(out[kept], x[kept] / 0.75, 1e-6, 1e-6, "dropout scaling")


@workload("tk_device_assert", "tl.device_assert in a debug build (the assertion holds)", "user", cost=3)
def tk_device_assert(ctx):
    torch, triton, _, lang = _t()
    ctx.seed(0)
    n = 2000
    x = torch.rand(n, device="cuda") * 10
    out = torch.empty_like(x)
    lang.checked_sqrt_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
    ctx.check_close(out, torch.sqrt(x), 1e-5, 1e-5, "checked sqrt")


@workload("tk_libdevice", "libdevice erf, tanh, pow, rsqrt", "user", cost=3)
def tk_libdevice(ctx):
    torch, triton, _, lang = _t()
    ctx.seed(0)
    n = 1500
    x = torch.randn(n, device="cuda") * 2
    y = torch.randn(n, device="cuda")
    outs = [torch.empty_like(x) for _ in range(4)]
    lang.libdevice_kernel[(triton.cdiv(n, 512),)](x, y, *outs, n, BLOCK=512)
    ctx.check_close(outs[0], torch.erf(x), 1e-5, 1e-5, "erf")
    ctx.check_close(outs[1], torch.tanh(x), 1e-5, 1e-5, "tanh")
    ctx.check_close(outs[2], torch.pow(x.abs(), y), 1e-4, 1e-4, "pow")
    ctx.check_close(outs[3], torch.rsqrt(x.abs() + 1), 1e-5, 1e-5, "rsqrt")


@workload("tk_splitk", "split-K matmul, fp16 operands, partial tiles added with tl.atomic_add", "user", cost=4)
def tk_splitk(ctx):
    torch, triton, _, lang = _t()
    ctx.seed(0)
    M, N, K, split = 96, 80, 512, 4
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.zeros(M, N, device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(M, 32) * triton.cdiv(N, 32), split)
    lang.matmul_splitk_kernel[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                    BLOCK_M=32, BLOCK_N=32, BLOCK_K=64, SPLIT_K=split)
    ctx.check_close(c, a.float() @ b.float(), 1e-2, 1e-3, "split-K matmul")
