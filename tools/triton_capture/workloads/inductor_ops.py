"""Inductor-generated kernels of plain ops (torch.compile, default mode, no cudagraphs).

Each workload compiles a few small functions and checks them against eager PyTorch.
"""

from . import workload


def _close(ctx, got, want, atol=1e-4, rtol=1e-4, what="result"):
    import torch

    if isinstance(got, (tuple, list)):
        for i, (g, w) in enumerate(zip(got, want)):
            _close(ctx, g, w, atol, rtol, f"{what}[{i}]")
        return
    if got.dtype in (torch.bool, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8):
        ctx.check(torch.equal(got, want), f"{what}: wrong result")
    else:
        ctx.check_close(got, want, atol, rtol, what)


def _run(ctx, fn, *args, atol=1e-4, rtol=1e-4, what=None):
    out = ctx.compile(fn)(*args)
    _close(ctx, out, fn(*args), atol, rtol, what or fn.__name__)
    return out


@workload("ind_pointwise", "Inductor pointwise: fused elementwise math, broadcasts, casts, a 2-D tiled transpose",
          "pointwise", cost=12)
def ind_pointwise(ctx):
    import torch

    ctx.seed(0)
    x = torch.randn(64, 257, device="cuda")
    y = torch.randn(64, 257, device="cuda")
    bias = torch.randn(257, device="cuda")

    def fused(x, y, bias):
        return torch.where(x > 0, torch.sin(x) * y + bias, torch.exp(-y.abs()) - x).relu()

    def gelu_tanh(x):
        return torch.nn.functional.gelu(x, approximate="tanh") * torch.sigmoid(x)

    def mixed_types(x, y):
        h = (x.half() * y.half()).float()
        b = x.to(torch.bfloat16) + 1
        i = (x * 100).to(torch.int32) % 7
        return h + b.float() + i.float(), (x > y) & (y < 0.5)

    def transpose_add(x, y):
        return x.t().contiguous() * 2 + y.t()

    _run(ctx, fused, x, y, bias)
    _run(ctx, gelu_tanh, x, rtol=1e-4, atol=1e-5)
    _run(ctx, mixed_types, x, y, atol=1e-2, rtol=1e-2)
    _run(ctx, transpose_add, torch.randn(300, 200, device="cuda"), torch.randn(300, 200, device="cuda"))


@workload("ind_reduction", "Inductor reductions: long rows, columns, full (split) reductions, var_mean, argmax",
          "reduction", cost=12)
def ind_reduction(ctx):
    import torch

    ctx.seed(0)
    long_rows = torch.randn(8, 16384, device="cuda")

    def row_sum(x):
        return x.sum(dim=-1), x.amax(dim=-1)

    def var_mean(x):
        return torch.var_mean(x, dim=-1)

    def col_sum(x):
        return x.sum(dim=0)

    def full(x):
        return x.abs().sum(), (x > 1).any()

    def arg_ops(x):
        return x.argmax(dim=-1), x.argmin(dim=-1)

    _run(ctx, row_sum, long_rows, atol=1e-3)
    _run(ctx, var_mean, long_rows, atol=1e-4)
    _run(ctx, col_sum, torch.randn(4096, 96, device="cuda"), atol=1e-3)
    _run(ctx, full, torch.randn(1 << 18, device="cuda"), atol=5e-2, rtol=1e-4)
    _run(ctx, arg_ops, long_rows)


@workload("ind_persistent_reduction", "Inductor persistent reductions: softmax, log_softmax, layer_norm, rms_norm",
          "persistent_reduction", cost=12)
def ind_persistent_reduction(ctx):
    import torch

    ctx.seed(0)
    x = torch.randn(96, 512, device="cuda")
    w = torch.randn(512, device="cuda")
    b = torch.randn(512, device="cuda")

    def softmaxes(x):
        return torch.softmax(x, dim=-1), torch.log_softmax(x * 0.5, dim=-1)

    def layer_norm(x, w, b):
        return torch.nn.functional.layer_norm(x, (512,), w, b, 1e-5)

    def rms_norm(x, w):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w

    _run(ctx, softmaxes, x, atol=1e-5)
    _run(ctx, layer_norm, x, w, b, atol=1e-4)
    _run(ctx, rms_norm, x, w, atol=1e-4)
    _run(ctx, softmaxes, torch.randn(40, 100, device="cuda", dtype=torch.float16), atol=2e-3, rtol=2e-3)


@workload("ind_scan", "Inductor scans: cumsum, cumprod, logcumsumexp (fp32, int64)", "scan", cost=10)
def ind_scan(ctx):
    import torch

    ctx.seed(0)
    x = torch.randn(16, 256, device="cuda")

    def scans(x):
        return torch.cumsum(x, dim=-1), torch.cumprod(1 + 0.01 * x, dim=-1), torch.logcumsumexp(x, dim=-1)

    def int_cumsum(i):
        return torch.cumsum(i, dim=1)

    _run(ctx, scans, x, atol=1e-4, rtol=1e-4)
    _run(ctx, int_cumsum, torch.randint(-5, 5, (8, 300), device="cuda"))


@workload("ind_sort", "Inductor sort, argsort, topk (triton_helpers bitonic sort) and argmax", "sort", cost=10)
def ind_sort(ctx):
    import torch

    ctx.seed(0)
    x = torch.randn(32, 128, device="cuda")

    def sort_values(x):
        v, i = torch.sort(x, dim=-1)
        return v, i

    def argsort_desc(x):
        return torch.argsort(x, dim=-1, descending=True, stable=True)

    def topk(x):
        v, i = torch.topk(x, 8, dim=-1)
        return v, i

    def argmax(x):
        return torch.argmax(x, dim=-1)

    _run(ctx, sort_values, x, atol=0, rtol=0)
    _run(ctx, argsort_desc, x)
    _run(ctx, topk, x, atol=0, rtol=0)
    _run(ctx, argmax, x)


@workload("ind_embedding", "Inductor embedding forward and embedding_dense_backward (atomic accumulation)",
          "gather_scatter", cost=10)
def ind_embedding(ctx):
    import torch

    ctx.seed(0)
    emb = torch.nn.Embedding(256, 64).cuda()
    ids = torch.randint(0, 256, (4, 32), device="cuda")
    proj = torch.randn(64, device="cuda")

    def f(ids):
        return (emb(ids) * proj).tanh().sum()

    out = ctx.compile(f)(ids)
    out.backward()
    got = emb.weight.grad.clone()
    emb.weight.grad = None
    f(ids).backward()
    ctx.check_close(got, emb.weight.grad, 1e-5, 1e-5, "embedding backward")


@workload("ind_scatter_gather", "Inductor scatter_add, index_add, gather, index_select, index_put(accumulate)",
          "gather_scatter", cost=12)
def ind_scatter_gather(ctx):
    import torch

    ctx.seed(0)
    x = torch.randn(64, 32, device="cuda")
    src = torch.randn(128, 32, device="cuda")
    rows = torch.randint(0, 64, (128,), device="cuda")
    idx2d = torch.randint(0, 64, (128, 32), device="cuda")
    cols = torch.randint(0, 32, (64, 16), device="cuda")

    def scatter_add(x, idx2d, src):
        return x.scatter_add(0, idx2d, src)

    def index_add(x, rows, src):
        return x.index_add(0, rows, src, alpha=0.5)

    def gather(x, cols):
        return torch.gather(x, 1, cols) * 2

    def index_select(x, rows):
        return torch.index_select(x, 0, rows) + 1

    def index_put(x, rows, src):
        return torch.index_put(x, (rows,), src, accumulate=True)

    _run(ctx, scatter_add, x, idx2d, src, atol=1e-5)
    _run(ctx, index_add, x, rows, src, atol=1e-5)
    _run(ctx, gather, x, cols)
    _run(ctx, index_select, x, rows)
    _run(ctx, index_put, x, rows, src, atol=1e-5)


@workload("ind_dropout", "Inductor dropout and rand_like (tl.rand with Inductor's seeds)", "pointwise", cost=8)
def ind_dropout(ctx):
    import torch

    ctx.seed(0)
    x = torch.randn(64, 256, device="cuda")

    def dropout(x):
        return torch.nn.functional.dropout(x, p=0.3, training=True) * 2

    def noisy(x):
        return x + torch.rand_like(x) * 0.1

    out = ctx.compile(dropout)(x)
    kept = out != 0
    ctx.check_close(out[kept], x[kept] * 2 / 0.7, 1e-5, 1e-5, "dropout")
    n = ctx.compile(noisy)(x)
    ctx.check(bool(((n - x) >= 0).all() & ((n - x) <= 0.1 + 1e-6).all()), "rand_like range")
