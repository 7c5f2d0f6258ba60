"""Inductor Triton templates: max-autotune GEMM / BMM / addmm / conv, and flex attention.

Max-autotune is the "max-autotune-no-cudagraphs" mode spelled out as options so that coordinate
descent tuning can stay off (it only adds benchmarking time): max_autotune on, cudagraphs off,
Triton as the only GEMM/conv backend (so the template, not cuBLAS/cuDNN, runs), at most
MAX_MM_CONFIGS template configs per GEMM, no decompose-K split choices and no epilogue-fusion
benchmarking. Launches made while autotuning are counted, not recorded (hook.py).
"""

from . import workload

MAX_MM_CONFIGS = 4

MAX_AUTOTUNE = {
    "max_autotune": True,
    "triton.cudagraphs": False,
    "coordinate_descent_tuning": False,
    "max_autotune_gemm_backends": "TRITON",
    "max_autotune_conv_backends": "TRITON",
    "benchmark_epilogue_fusion": False,
}


def _bounded_autotune():
    """Config patches that bound autotuning time (names checked against torch 2.11's config)."""
    import torch._inductor.config as ic

    patches = {}
    if hasattr(ic, "test_configs") and hasattr(ic.test_configs, "max_mm_configs"):
        patches["test_configs.max_mm_configs"] = MAX_MM_CONFIGS
    if hasattr(ic.triton, "num_decompose_k_splits"):
        patches["triton.num_decompose_k_splits"] = 0
    return ic.patch(patches)


def _compile_max_autotune(ctx, fn):
    return ctx.compile(fn, options=dict(MAX_AUTOTUNE))


@workload("tpl_mm", "max-autotune GEMM template: mm fp16 and fp32 (with a fused epilogue)", "template_mm", cost=30)
def tpl_mm(ctx):
    import torch

    ctx.seed(0)
    a = torch.randn(64, 96, device="cuda", dtype=torch.float16)
    b = torch.randn(96, 80, device="cuda", dtype=torch.float16)
    a32 = torch.randn(48, 64, device="cuda")
    b32 = torch.randn(64, 112, device="cuda")

    def mm(a, b):
        return a @ b

    def mm_relu(a, b):
        return torch.relu(a @ b) * 0.5

    with _bounded_autotune():
        out = _compile_max_autotune(ctx, mm)(a, b)
        ctx.check_close(out, a.float() @ b.float(), 5e-2, 1e-2, "mm fp16")
        out = _compile_max_autotune(ctx, mm_relu)(a32, b32)
        ctx.check_close(out, torch.relu(a32.double() @ b32.double()).float() * 0.5, 5e-2, 1e-2, "mm fp32 (tf32 allowed)")


@workload("tpl_addmm", "max-autotune addmm template (bias epilogue), fp32", "template_mm", cost=20)
def tpl_addmm(ctx):
    import torch

    ctx.seed(0)
    x = torch.randn(64, 128, device="cuda")
    w = torch.randn(96, 128, device="cuda")
    bias = torch.randn(96, device="cuda")

    def linear(x, w, bias):
        return torch.addmm(bias, x, w.t())

    with _bounded_autotune():
        out = _compile_max_autotune(ctx, linear)(x, w, bias)
    ctx.check_close(out, (x.double() @ w.double().t() + bias.double()).float(), 5e-2, 1e-2, "addmm")


@workload("tpl_bmm", "max-autotune BMM template, fp16", "template_bmm", cost=20)
def tpl_bmm(ctx):
    import torch

    ctx.seed(0)
    a = torch.randn(4, 64, 48, device="cuda", dtype=torch.float16)
    b = torch.randn(4, 48, 80, device="cuda", dtype=torch.float16)

    def bmm(a, b):
        return torch.bmm(a, b)

    with _bounded_autotune():
        out = _compile_max_autotune(ctx, bmm)(a, b)
    ctx.check_close(out, torch.bmm(a.float(), b.float()), 5e-2, 1e-2, "bmm")


@workload("tpl_conv", "max-autotune conv2d template, fp32 NCHW and channels-last", "template_conv", cost=25)
def tpl_conv(ctx):
    import torch
    import torch.nn.functional as F

    ctx.seed(0)
    x = torch.randn(2, 16, 16, 16, device="cuda")
    w = torch.randn(32, 16, 3, 3, device="cuda") * 0.1
    bias = torch.randn(32, device="cuda")

    def conv(x, w, bias):
        return F.conv2d(x, w, bias, padding=1)

    with _bounded_autotune():
        out = _compile_max_autotune(ctx, conv)(x, w, bias)
        ref = F.conv2d(x.double(), w.double(), bias.double(), padding=1).float()
        ctx.check_close(out, ref, 5e-2, 1e-2, "conv2d")
        xc = x.to(memory_format=torch.channels_last)
        out = _compile_max_autotune(ctx, conv)(xc, w.to(memory_format=torch.channels_last), bias)
        ctx.check_close(out, ref, 5e-2, 1e-2, "conv2d channels-last")


@workload("flex_attention", "flex_attention forward and backward, causal block mask, plus a score_mod",
          "flex_attention", cost=40)
def flex_attention_workload(ctx):
    import torch
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    ctx.seed(0)
    B, H, S, D = 1, 2, 256, 64

    def causal(b, h, q_idx, kv_idx):
        return q_idx >= kv_idx

    def relative_bias(score, b, h, q_idx, kv_idx):
        return score + (q_idx - kv_idx) * 0.01

    block_mask = create_block_mask(causal, B=None, H=None, Q_LEN=S, KV_LEN=S, device="cuda")
    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16, requires_grad=True) for _ in range(3))
    flex = ctx.compile(flex_attention)
    out = flex(q, k, v, block_mask=block_mask)
    grad = torch.randn_like(out)
    out.backward(grad)

    # reference in fp32
    qr, kr, vr = (t.detach().float().requires_grad_() for t in (q, k, v))
    s = (qr @ kr.transpose(-1, -2)) * D ** -0.5
    s = s.masked_fill(torch.ones(S, S, dtype=torch.bool, device="cuda").triu(1), float("-inf"))
    ref = torch.softmax(s, dim=-1) @ vr
    ref.backward(grad.float())
    ctx.check_close(out, ref, 2e-2, 2e-2, "flex attention forward")
    ctx.check_close(q.grad, qr.grad, 5e-2, 5e-2, "flex attention dq")

    out2 = flex(q.detach(), k.detach(), v.detach(), score_mod=relative_bias, block_mask=block_mask)
    ctx.check(bool(torch.isfinite(out2).all()), "flex attention with score_mod: non-finite output")
